-- title: One infraction
-- description: An infraction by its rule id: its definition, examples, corrective action (as written and per level of play), context, remedy and upgrade, with where it comes from.
select i.rule as id, i.document, i.game, g.name as game_name, i.lang, i.number, i.name,
       i.category, i.definition, i.examples, i.corrective_action, i.penalties, i.context,
       i.remedy, i.upgrade, i.translation_of, d.title as document_title, d.file, d.provenance,
       d.era, d.effective, r.line_start, r.line_end, s.path as section_path
from infractions i
join rules r on r.id = i.rule
join sections s on s.id = r.section
join documents d on d.id = i.document
join games g on g.id = i.game
where i.rule = :id
