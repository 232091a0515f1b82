-- title: Rules of a section
-- description: The rules, paragraphs and bullets of one section (id: document:slug), in reading order.
select r.id, r.parent, r.kind, r.number, r.label, r.title, r.depth, r.text, r.lang,
       r.langs, r.ruleset, r.era, r.line_start, r.line_end
from rules r
where r.section = :id
order by r.ord
