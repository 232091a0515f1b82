-- title: The same rule in older versions
-- description: For each rule of a JSON list of ids, the rule it replaced in the older version of its rulebook, whether the text is the same, and that version.
-- publish: no
select c.new_rule as rule, c.old_rule as id, c.kind, o.text = n.text as same,
       d.id as document, d.version
from rule_changes c
join rules o on o.id = c.old_rule
join rules n on n.id = c.new_rule
join documents d on d.id = o.document
where c.new_rule in (select value from json_each(coalesce(nullif(:ids, ''), '[]')))
order by c.new_rule, d.ord
