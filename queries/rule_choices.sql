-- title: Rules with a number, for the rule permalink
-- description: Every rule with a given number, one per document and version, current versions first, with its section and what a citation needs.
-- publish: no
select r.id, r.document, d.title as document_title, d.lang as document_lang,
       d.provenance, d.version, d.superseded_by, r.era, s.slug, r.lang, r.text, d.file,
       r.line_start
from rules r
join documents d on d.id = r.document
join sections s on s.id = r.section
where r.number = :number
order by d.superseded_by is not null, d.ord
