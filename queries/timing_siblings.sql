-- title: Moments beside a moment
-- description: The moments with the same parent in the same tree, in order.
select en, label, id from timing_nodes
where parent is :parent and tree = :tree
order by ord
