-- title: Card names for the ask vocabulary
-- description: Every name and alias of every card with its card's name, game and kind, in the order they were stored.
-- publish: no
select a.alias, a.card, a.lang, a.kind, c.name, c.game, c.kind as card_kind
from card_aliases a join cards c on c.id = a.card
order by a.id
