-- title: What the rules say a card may do
-- description: Every permission fact naming a card, at any moment: where the rules say it can, cannot or only may be activated.
select f.id, f.rule, f.subject, f.action, f.modality, f.chain, f.source, f.quote, f.moment, f.lang,
       f.condition, f.concepts
from facts f
where f.kind = 'permission' and f.subject = 'card:' || :card
order by f.rule, f.id
