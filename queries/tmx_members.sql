-- title: The rules of every alignment link, for kb export tmx
-- description: Each alignment link's source and target rules with their texts, in order.
-- publish: no
select m.alignment, m.side, m.rule, r.text
from alignment_rules m join rules r on r.id = m.rule
order by m.alignment, m.id
