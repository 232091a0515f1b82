-- title: The same rule in the current version
-- description: For each rule of a JSON list of ids from a superseded rulebook, the rule that follows it in the newer version (by the version diff; kind 'removed' has none) and that version.
-- publish: no
select c.old_rule as rule, c.new_rule as id, c.kind, n.number, d.id as document, d.version,
       d.title as document_title
from rule_changes c
left join rules n on n.id = c.new_rule
left join documents d on d.id = c.new_document
where c.old_rule in (select value from json_each(coalesce(nullif(:ids, ''), '[]')))
order by c.old_rule
