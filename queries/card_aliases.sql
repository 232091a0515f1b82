-- title: Card names and aliases
-- description: Every name a card goes by: its name, case variants, machine-translation renderings, Chinese and Japanese names.
select a.alias, a.card, a.lang, a.kind, c.name, c.game, c.kind as card_kind
from card_aliases a
join cards c on c.id = a.card
where (:game = '' or c.game = :game)
order by a.card, a.id
