-- title: The rules of a document and its translations, for the compare pages
-- description: Every rule of a source document and of its translation variants, with what a citation needs (document, language, era, file lines, provenance) and its section.
-- publish: no
select r.id, r.document, r.text, r.lang, r.era, r.line_start, r.line_end, d.file,
       d.provenance, d.title as document_title, r.game, r.number, r.section, s.slug,
       s.number as section_number, s.title as section_title, s.lang as section_lang
from rules r join documents d on d.id = r.document join sections s on s.id = r.section
where r.document = :document
   or r.document in (select id from documents where translation_of = :document)
