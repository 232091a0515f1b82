-- title: Moments next to a moment, for kb ask
-- description: The parent and the children of a timing node.
-- publish: no
select parent from timing_nodes where id = :node and parent is not null
union select id from timing_nodes where parent = :node
