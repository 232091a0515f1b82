-- title: A card's data lines, for kb ask
-- description: Sequence numbers of the rules that state a card's data, the fields asked for (a JSON list) first.
-- publish: no
select r.seq from card_facts f join rules r on r.id = f.rule
where f.card = :card
order by f.field not in (select value from json_each(coalesce(nullif(:fields, ''), '[]'))), f.id
limit coalesce(nullif(:limit, ''), -1)
