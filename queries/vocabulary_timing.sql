-- title: Timing names for the ask vocabulary
-- description: Every name of every timing node (its English name and its names in every language), with its tree and game.
-- publish: no
select n.id as node, n.tree, n.game, n.en as text from timing_nodes n
union
select m.node, n.tree, n.game, m.text from timing_names m join timing_nodes n on n.id = m.node
order by 1, 4
