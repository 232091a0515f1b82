-- title: A game
-- description: A game's name and publisher, by id.
-- publish: no
select id, name, publisher from games where id = :game
