-- title: How rules changed since the previous version
-- description: For each rule of a JSON list of ids in a newer version of a rulebook: how it differs from the older version's (added, moved or reworded; unchanged rules are not listed), the versions, and the old rule's number.
-- publish: no
select c.new_rule as rule, c.kind, c.old_rule, o.number as old_number, nd.version,
       od.version as old_version
from rule_changes c
join documents nd on nd.id = c.new_document
join documents od on od.id = c.old_document
left join rules o on o.id = c.old_rule
where c.new_rule in (select value from json_each(coalesce(nullif(:ids, ''), '[]')))
  and c.kind in ('added', 'moved', 'reworded')
order by c.new_rule
