-- title: Rules of a moment
-- description: The rules the timing graph links to a moment, with their text, in document order.
select r.id, r.text from timing_rules t join rules r on r.id = t.rule
where t.node = :node
order by r.seq
