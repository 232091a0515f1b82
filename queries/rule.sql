-- title: One rule
-- description: A rule by id, with its section path, source location and its document's provenance and era.
select
  r.id, r.document, r.section, r.parent, r.game, r.lang, r.langs, r.kind, r.number, r.label, r.title,
  r.text, r.ruleset, r.era, r.line_start, r.line_end, r.ord,
  s.path as section_path, s.title as section_title,
  d.title as document_title, d.file, d.variant, d.translation_of, d.provenance, d.version,
  d.era as document_era, d.superseded_by, g.name as game_name
from rules r
join sections s on s.id = r.section
join documents d on d.id = r.document
join games g on g.id = r.game
where r.id = :id
