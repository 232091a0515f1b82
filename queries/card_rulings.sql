-- title: Rulings for a card
-- description: Every rule, worked example or FAQ entry naming a card, with its timing window, language, provenance and era.
select
  ru.id, ru.kind, ru.title, ru.question, ru.answer, ru.timing, n.en as timing_name, n.tree,
  r.text, r.label, r.lang, r.document, r.era, r.line_start, d.file, d.provenance, d.title as document_title,
  s.path as section_path
from ruling_cards rc
join rulings ru on ru.id = rc.ruling
join rules r on r.id = ru.id
join documents d on d.id = r.document
join sections s on s.id = r.section
left join timing_nodes n on n.id = ru.timing
where rc.card = :id
order by d.ord, r.ord
