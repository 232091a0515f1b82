-- title: A card on the restriction lists
-- description: Every restriction-list entry of a card, in document order.
select x.list, x.status, x.name, x.rule from restrictions x join rules r on r.id = x.rule
where x.card = :card
order by r.seq, x.ord
