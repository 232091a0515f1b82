-- title: A section's subsections
-- description: The sections directly under a section, in order, with their number of rules.
-- publish: no
select s.number, s.title, s.slug, s.lang,
       (select count(*) from rules r where r.section = s.id) as rules
from sections s
where s.parent = :id
order by s.ord
