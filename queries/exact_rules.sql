-- title: Rules a search names exactly
-- description: The rule with this id, or every rule with this number, each with its document's version and whether a newer version supersedes it (for opening the rule a search names).
-- publish: no
select r.id, r.document, r.game, r.lang, r.kind, r.number, r.label, r.title, r.text,
       s.path as section_path, s.lang as section_lang, r.line_start, d.file, d.provenance,
       d.era, d.title as document_title, d.lang as document_lang, d.version, d.superseded_by,
       0.0 as score
from rules r
join sections s on s.id = r.section
join documents d on d.id = r.document
where (r.id = :ref or r.number = :ref)
  and (:game = '' or r.game = :game)
order by d.superseded_by is not null, d.ord
