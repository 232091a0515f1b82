-- title: Search rows by sequence number
-- description: Rules by rules.seq (a JSON list) with the columns of a search hit, for the passages dense retrieval adds to a search.
-- publish: no
select
  r.seq, r.id, r.document, r.game, r.lang, r.kind, r.number, r.label, r.title, r.text,
  s.path as section_path, s.lang as section_lang, r.line_start, d.file, d.provenance, d.era,
  d.title as document_title, d.lang as document_lang, d.version, d.superseded_by
from rules r
join sections s on s.id = r.section
join documents d on d.id = r.document
where r.seq in (select value from json_each(coalesce(nullif(:seqs, ''), '[]')))
