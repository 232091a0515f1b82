-- title: Cards
-- description: Every card by game and name, with how many rulings name it.
select c.id, c.name, c.kind, c.game, g.name as game_name,
       (select count(*) from ruling_cards rc where rc.card = c.id) as rulings
from cards c join games g on g.id = c.game
order by g.name, c.name collate nocase
