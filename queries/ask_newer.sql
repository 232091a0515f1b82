-- title: The next version of rules, for kb ask and kb search
-- description: For each rule of a JSON list of ids, the same rule in the next version of its rulebook when its words are unchanged there (punctuation and spacing aside): one passage, cited from the current version.
-- publish: no
select old_rule as rule, new_rule as newer
from rule_changes
where old_rule in (select value from json_each(coalesce(nullif(:ids, ''), '[]')))
  and new_rule is not null and kind = 'unchanged'
