-- title: Card data
-- description: What the corpus says about a card (type, level, attribute, ATK/DEF, password...), each fact with its source rule.
select f.field, f.value, f.rule, r.document, d.provenance, r.era
from card_facts f
join rules r on r.id = f.rule
join documents d on d.id = r.document
where f.card = :id
order by f.id
