-- title: A card's rulings, for kb ask
-- description: Sequence numbers of the rules that name a card, in document order.
-- publish: no
select r.seq from ruling_cards rc join rules r on r.id = rc.ruling
where rc.card = :card
order by r.seq
limit coalesce(nullif(:limit, ''), -1)
