-- title: Rules cited by number, for the section pages
-- description: The rules of a document with the numbers of a JSON list, with their section, to link the numbers a text cites.
-- publish: no
select r.number, r.id, s.slug
from rules r join sections s on s.id = r.section
where r.document = :document
  and r.number in (select value from json_each(coalesce(nullif(:numbers, ''), '[]')))
