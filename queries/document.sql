-- title: One document
-- description: A document by id: its game, ruleset, title, variant, languages, provenance, era, version, publisher, source, license, file and counts.
select d.id, d.game, g.name as game_name, d.ruleset, d.title, d.variant,
       d.translation_of, d.lang, d.languages, d.provenance, d.era, d.version,
       d.effective, d.publisher, d.source, d.license, d.notes, d.file, d.sections,
       d.rules, d.superseded_by
from documents d join games g on g.id = d.game
where d.id = :document
