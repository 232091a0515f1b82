-- title: A card's name and ruling notes
-- description: The name of a card and the curated note on rulings that changed (Honest's 2014 change).
select id, name, notes from cards where id = :id
