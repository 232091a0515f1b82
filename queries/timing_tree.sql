-- title: Timing graph of a game
-- description: Phases, steps and sub-steps of a game (and ruleset), in order, with the number of rules that describe each.
select
  n.id, n.tree, n.game, n.ruleset, n.parent, n.ord, n.depth, n.kind, n.label, n.en,
  (select count(*) from timing_rules tr where tr.node = n.id) as rules
from timing_nodes n
where n.game = :game and (:ruleset = '' or n.ruleset = :ruleset or n.ruleset = '*')
order by n.tree, n.depth, n.ord
