-- title: The statements of rules
-- description: The clauses of the rules of a JSON list of ids read as statements: what each says (a modality, or that something happens or not), of what, under which condition.
-- publish: no
select f.id, f.rule, f.modality, f.subject, f.action, f.condition, f.outcome, f.limits, f.concepts,
       f.quote, f.lang, f.moment
from facts f
where f.kind = 'statement' and f.rule in (select value from json_each(coalesce(nullif(:ids, ''), '[]')))
order by f.rule, cast(substr(f.id, instr(f.id, '#') + 1) as integer)
