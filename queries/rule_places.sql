-- title: Where rules are shown, for the search page
-- description: The section slug of each rule of a JSON list of ids.
-- publish: no
select r.id, s.slug
from rules r join sections s on s.id = r.section
where r.id in (select value from json_each(coalesce(nullif(:ids, ''), '[]')))
