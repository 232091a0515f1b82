-- title: Game names
-- description: Every game's id and name.
-- publish: no
select id, name from games
