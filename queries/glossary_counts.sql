-- title: How often each rendering of a term occurs
-- description: For one glossary term: each rendering (English forms included) per language, how often it occurs in each document, and whether it is the preferred one.
-- publish: no
select c.lang, c.text, c.preferred, c.document, d.title as document_title, d.lang as document_lang, d.variant,
       d.provenance, c.count
from term_counts c join documents d on d.id = c.document
where c.term = :term
order by c.lang, c.preferred desc, c.count desc, d.ord
