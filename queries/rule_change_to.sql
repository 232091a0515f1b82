-- title: The change to a rule, for kb history
-- description: How a rule differs from its counterpart in the previous version of its rulebook: its own change first, then any rule merged into it (kind removed, "merged into"). A piece split from an old rule names that rule as its old side.
-- publish: no
select id, old_document, new_document, old_rule, new_rule, kind, similarity, detail
from rule_changes
where new_rule = :rule
order by kind = 'removed', id
