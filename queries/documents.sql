-- title: Documents
-- description: Every document with its game, language, variant, provenance and era.
select
  d.id, d.game, d.title, d.lang, d.languages, d.variant, d.translation_of, d.provenance, d.era,
  d.version, d.superseded_by, d.file, d.encoding, d.sections, d.rules, d.repairs
from documents d
where (:game = '' or d.game = :game)
order by d.ord
