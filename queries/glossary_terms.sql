-- title: Glossary terms of a game
-- description: The glossary terms of a game (its own and those every game shares, game '*'), or of every game, with how often the rules use each.
select t.id, t.game, t.en, t.forms, t.definition,
       coalesce((select sum(c.count) from term_counts c where c.term = t.id), 0) as uses,
       (select count(*) from term_renderings r where r.term = t.id) as renderings
from terms t
where (:game = '' or t.game = :game or t.game = '*')
order by lower(t.en), t.id
