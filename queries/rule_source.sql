-- title: Where a rule comes from
-- description: A rule's document, language, era, first line, file and provenance, and the newer version of its document if there is one: what every answer cites.
select r.id, r.document, r.lang, r.era, r.line_start, d.file, d.provenance, d.title,
       d.superseded_by
from rules r join documents d on d.id = r.document
where r.id = :id
