-- title: Who goes first at a moment
-- description: The order facts of a timing moment (the turn player has priority first), with their rules.
select f.id, f.rule, f.subject, f.action, f.modality, f.quote, f.moment, f.lang
from facts f
where f.kind = 'order' and f.moment = :moment
order by f.rule, f.id
