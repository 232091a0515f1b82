-- title: How many rules a game holds, for kb ask
-- description: The rules of one game (an index range count): what a word's share of that game's rules is measured against.
-- publish: no
select count(*) from rules where game = :game
