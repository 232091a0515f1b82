-- title: The change to a rule, for kb history
-- description: How a rule differs from its counterpart in the previous version of its rulebook (at most one change).
-- publish: no
select id, old_document, new_document, old_rule, new_rule, kind, similarity, detail
from rule_changes
where new_rule = :rule
