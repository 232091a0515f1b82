-- title: Timing charts
-- description: The timing trees of every game (or one), with how many moments each has.
select t.id, t.game, t.ruleset, t.title, t.chain_order,
       (select count(*) from timing_nodes n where n.tree = t.id) as nodes
from timing_trees t
where (:game = '' or t.game = :game)
order by t.game, t.ruleset = '*' desc, t.ruleset desc
