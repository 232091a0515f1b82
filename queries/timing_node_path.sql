-- title: A timing moment's path
-- description: The English names of a timing node and the nodes above it, outermost first.
-- publish: no
with recursive up(id, depth) as (
  select :node, 0
  union all
  select n.parent, up.depth + 1 from timing_nodes n join up on n.id = up.id
  where n.parent is not null
)
select n.en from up join timing_nodes n on n.id = up.id order by up.depth desc
