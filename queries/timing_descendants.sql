-- title: Moments inside a moment
-- description: Every moment under a timing node (its steps, their sub-steps), in tree order.
with recursive below(id, depth) as (
  select id, 1 from timing_nodes where parent = :node
  union all
  select n.id, below.depth + 1 from timing_nodes n join below on n.parent = below.id
)
select n.id from below join timing_nodes n on n.id = below.id order by n.depth, n.ord
