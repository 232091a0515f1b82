-- title: A document and its translations, for the compare pages
-- description: A source document first, then its translation variants by name, with language, provenance, era, file and rule count.
-- publish: no
select d.id, d.title, d.game, d.lang, d.variant, d.translation_of, d.provenance, d.era,
       d.file, d.rules
from documents d
where d.id = :document or d.translation_of = :document
order by d.translation_of is not null, d.variant
