-- title: Compared versions
-- description: The pairs of rulebook versions the build compared (old -> new), with their versions, effective dates and how many changes each has.
select c.old_document, c.new_document, o.version as old_version, n.version as new_version,
       o.effective as old_effective, n.effective as new_effective, o.game, o.ruleset,
       count(*) as changes
from rule_changes c
join documents o on o.id = c.old_document
join documents n on n.id = c.new_document
group by c.old_document, c.new_document
order by o.game, o.ruleset, min(c.id)
