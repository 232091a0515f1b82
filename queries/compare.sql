-- title: Translations side by side
-- description: Every alignment link of a source document with its translation variants: source rules, target rules, score and method, in reading order.
select
  a.id as alignment, a.source_document, a.target_document, d.variant, a.source_ids, a.target_ids,
  a.score, a.method, a.ord
from alignments a
join documents d on d.id = a.target_document
where a.source_document = :document
order by a.ord
