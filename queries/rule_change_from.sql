-- title: The change from a rule, for kb history
-- description: How a rule changed in the next version of its rulebook: its own change first, then any piece split from it (kind added, "split from").
-- publish: no
select id, old_document, new_document, old_rule, new_rule, kind, similarity, detail
from rule_changes
where old_rule = :rule
order by kind = 'added', id
