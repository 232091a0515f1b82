-- title: A glossary term
-- description: One glossary term by id: its game, English name and other English forms.
-- publish: no
select t.id, t.game, t.en, t.forms, g.name as game_name
from terms t left join games g on g.id = t.game
where t.id = :term
