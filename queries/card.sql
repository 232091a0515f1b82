-- title: A card
-- description: A card with its game, kind (card or archetype), where it was found and curated notes.
select c.id, c.game, g.name as game_name, c.name, c.kind, c.source, c.notes,
  (select count(*) from ruling_cards rc where rc.card = c.id) as rulings
from cards c
join games g on g.id = c.game
where c.id = :id
