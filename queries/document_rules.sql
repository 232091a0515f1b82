-- title: Every rule of a document
-- description: The rules of one document in reading order, each with its section (for reading the whole document on one page).
-- publish: no
select r.id, r.section, s.slug, r.kind, r.number, r.label, r.title, r.depth, r.text, r.lang,
       r.era, r.line_start, r.line_end, r.game
from rules r join sections s on s.id = r.section
where r.document = :document
order by s.ord, r.ord
