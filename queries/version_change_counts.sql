-- title: Changes by kind between two versions
-- description: How many rules were added, removed, moved, reworded or left unchanged from one version of a rulebook (old, e.g. fow-cr-7.0) to the next (new, e.g. fow-cr-8.01).
select kind, count(*) as n from rule_changes
where old_document = :old and new_document = :new group by kind
