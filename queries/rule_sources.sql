-- title: Where rules come from, for the website
-- description: For each rule of a JSON list of ids: its document, language, kind, number, era, file lines, provenance, version and variant (what a page cites), and its section's title and the language of it.
-- publish: no
select r.id, r.document, d.title as document_title, r.lang, r.kind, r.number, r.era,
       r.line_start, r.line_end, d.file, d.provenance, d.version, d.variant,
       s.title as section_title, s.lang as section_lang, d.lang as document_lang
from rules r join documents d on d.id = r.document join sections s on s.id = r.section
where r.id in (select value from json_each(coalesce(nullif(:ids, ''), '[]')))
