-- title: The same rule in the other versions of its rulebook, for kb ask
-- description: For each rule of a JSON list of ids, the rule the version diff pairs it with in the previous or the next version of its rulebook (unchanged, reworded or moved; not added or removed), with that rule's document.
-- publish: no
select c.old_rule as rule, c.new_rule as other, c.new_document as document
from rule_changes c
where c.old_rule in (select value from json_each(coalesce(nullif(:ids, ''), '[]')))
  and c.new_rule is not null
union all
select c.new_rule as rule, c.old_rule as other, c.old_document as document
from rule_changes c
where c.new_rule in (select value from json_each(coalesce(nullif(:ids, ''), '[]')))
  and c.old_rule is not null
