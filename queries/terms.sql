-- title: Glossary
-- description: Glossary terms, curated and from the rulebooks' own glossaries (with their definition and the rule that states it), with their renderings per language and machine translation, and how often each occurs in each document.
select
  t.id as term, t.game, t.en, t.definition, t.rule, r.lang, r.source, r.text, r.preferred, r.note,
  coalesce(c.document, '') as document, coalesce(d.variant, '') as variant, coalesce(c.count, 0) as count
from terms t
join term_renderings r on r.term = t.id
left join term_counts c on c.term = t.id and c.text = r.text and c.lang = r.lang
left join documents d on d.id = c.document
where (:term = '' or t.id = :term or lower(t.en) = lower(:term))
order by t.id, r.lang, r.preferred desc, r.id, d.ord
