-- title: Card names
-- description: Every card's id and name.
select id, name from cards order by id
