-- title: The change from a rule, for kb history
-- description: How a rule changed in the next version of its rulebook (at most one change).
-- publish: no
select id, old_document, new_document, old_rule, new_rule, kind, similarity, detail
from rule_changes
where old_rule = :rule
