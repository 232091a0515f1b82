-- title: Rules aligned with rules, for kb ask
-- description: For each rule of a JSON list of ids, the rules on the other side of its alignments (its translations, or its source).
-- publish: no
select a.rule as rule, b.rule as other
from alignment_rules a
join alignment_rules b on b.alignment = a.alignment and b.side != a.side
where a.rule in (select value from json_each(coalesce(nullif(:ids, ''), '[]')))
