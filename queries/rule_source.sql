-- title: Where a rule comes from
-- description: A rule's document, language, era, first line, file and provenance: what every answer cites.
select r.id, r.document, r.lang, r.era, r.line_start, d.file, d.provenance, d.title
from rules r join documents d on d.id = r.document
where r.id = :id
