-- title: The chapter of each rule
-- description: For each rule of a JSON list of ids, the top-level section (level 1) it belongs to: its slug, number and title (the version diff is split by chapter).
-- publish: no
with recursive up(rule, id, parent, level) as (
  select r.id, s.id, s.parent, s.level
  from rules r join sections s on s.id = r.section
  where r.id in (select value from json_each(coalesce(nullif(:ids, ''), '[]')))
  union all
  select up.rule, s.id, s.parent, s.level from up join sections s on s.id = up.parent
  where up.level > 1
)
select up.rule, s.slug, s.number, s.title, s.ord
from up join sections s on s.id = up.id
where up.level <= 1
