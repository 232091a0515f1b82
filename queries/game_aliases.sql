-- title: Games and their aliases
-- description: Every game's id, name and other names (a JSON list), by id.
-- publish: no
select id, name, aliases from games order by id
