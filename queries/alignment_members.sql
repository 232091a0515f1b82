-- title: The rules of one alignment link, for kb variant-diff
-- description: The source and target rules of one alignment link, with their texts, in order.
-- publish: no
select m.rule, m.side, r.text
from alignment_rules m
join rules r on r.id = m.rule
where m.alignment = :alignment
order by m.id
