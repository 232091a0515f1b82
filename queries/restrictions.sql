-- title: Restriction lists
-- description: Limited, semi-limited and forbidden cards of each list (004: DM5, DM6, DMI), names as written and the card they resolve to.
select x.list, x.status, x.ord, x.name, x.card, c.name as card_name, x.rule
from restrictions x
left join cards c on c.id = x.card
where (:list = '' or x.list = upper(:list)) and (:card = '' or x.card = :card)
order by x.list, x.ord
