-- title: A timing moment
-- description: A node of a timing tree with its tree's title and Chain order.
select n.*, t.title as tree_title, t.chain_order
from timing_nodes n
join timing_trees t on t.id = n.tree
where n.id = :id
