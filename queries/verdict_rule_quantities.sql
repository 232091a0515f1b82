-- title: The quantities a rule sets
-- description: The quantity facts of the rules of a JSON list of ids: each number, what it counts, what it is said of.
-- publish: no
select f.id, f.rule, f.modality, f.low, f.high, f.unit, f.subject, f.condition, f.concepts, f.quote, f.lang, f.outcome,
       f.moment, d.version
from facts f join rules r on r.id = f.rule join documents d on d.id = r.document
where f.kind = 'quantity' and f.rule in (select value from json_each(coalesce(nullif(:ids, ''), '[]')))
order by f.id
