-- title: A card by its exact name
-- description: The card with exactly this name, in one game or any.
-- publish: no
select id, name from cards
where name = :name and (:game = '' or game = :game)
order by id limit 1
