-- title: Rules of a timing moment, for kb ask
-- description: Sequence numbers of the rules the timing graph links to a moment, in document order.
-- publish: no
select r.seq from timing_rules t join rules r on r.id = t.rule
where t.node = :node
order by r.seq
limit coalesce(nullif(:limit, ''), -1)
