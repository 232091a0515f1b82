-- title: A card on the restriction lists
-- description: Every restriction-list entry of a card, in document order.
select x.list, x.status, x.name, x.rule, d.ruleset from restrictions x join rules r on r.id = x.rule
join documents d on d.id = r.document
where x.card = :card
order by r.seq, x.ord
