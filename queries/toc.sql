-- title: Table of contents
-- description: The sections of a document in reading order, each with its parent, level, number, title and number of rules.
select s.id, s.parent, s.level, s.number, s.title, s.slug, s.lang,
       (select count(*) from rules r where r.section = s.id) as rules
from sections s
where s.document = :document
order by s.ord
