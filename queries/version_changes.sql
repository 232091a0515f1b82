-- title: What changed between two versions
-- description: Every change from one version of a rulebook (old, e.g. fow-cr-7.0) to the next (new, e.g. fow-cr-8.01): its kind, similarity, word diff, and both sides' rule numbers and texts.
select c.id, c.kind, c.similarity, c.detail,
       c.old_rule, o.number as old_number, o.text as old_text,
       c.new_rule, n.number as new_number, n.text as new_text
from rule_changes c
left join rules o on o.id = c.old_rule
left join rules n on n.id = c.new_rule
where c.old_document = :old and c.new_document = :new
order by c.id
