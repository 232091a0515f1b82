-- title: Sub-rules
-- description: The rules, bullets or answers directly under a rule.
select r.id, r.kind, r.number, r.label, r.title, r.text, r.line_start
from rules r
where r.parent = :id
order by r.ord
