-- title: What may be done at a moment
-- description: The permission facts of a timing moment: which cards or card classes can, cannot or only may be activated there, in which Chain, each with its rule and sentence.
select f.id, f.rule, f.subject, f.action, f.modality, f.chain, f.source, f.quote, f.moment, f.lang,
       f.condition, f.concepts
from facts f
where f.kind = 'permission' and f.moment = :moment
order by f.rule, f.id
