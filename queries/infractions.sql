-- title: Infractions
-- description: The infractions of the penalty guidelines (a judge's "Missed Trigger"), with their category and the corrective action at each level of play, in the guidelines' order; optionally of one game or language.
select i.rule as id, i.document, i.game, g.name as game_name, i.lang, i.number, i.name,
       i.category, i.penalties, i.translation_of, d.title as document_title, d.provenance
from infractions i
join rules r on r.id = i.rule
join documents d on d.id = i.document
join games g on g.id = i.game
where (:game = '' or i.game = :game) and (:lang = '' or i.lang = :lang)
order by d.ord, r.ord
