-- title: Rules that may open by defining a term
-- description: Rules of current documents that are not machine translations whose first words hold "is", "are", "means" or "refers" ("A main deck is a pile of cards ...", "Drop Zone, is a pile ..."), with their document and section; kb.lookups.definitions keeps those that open with the term they define.
-- publish: no
select r.id as rule, r.document, r.number, r.text, r.lang, r.game, s.slug,
       s.title as section_title, d.title as document_title, d.lang as document_lang
from rules r
join documents d on d.id = r.document
join sections s on s.id = r.section
where d.superseded_by is null and d.provenance != 'machine'
  and (instr(lower(substr(r.text, 1, 60)), ' is ') > 0
       or instr(lower(substr(r.text, 1, 60)), ' are ') > 0
       or instr(lower(substr(r.text, 1, 60)), ' means ') > 0
       or instr(lower(substr(r.text, 1, 60)), ' refers ') > 0)
order by d.ord, r.ord
