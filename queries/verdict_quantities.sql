-- title: Quantities the rules set
-- description: Every number a rule of a game bounds (exactly, at least, at most, a range), with the concept it counts and the concepts of its sentence and section.
-- publish: no
select f.id, f.rule, f.modality, f.low, f.high, f.unit, f.subject, f.condition, f.concepts, f.quote, f.lang, f.ruleset, f.moment, f.outcome,
       r.document, d.version, d.provenance, s.path || ' ' || coalesce(r.title, '') as context
from facts f join rules r on r.id = f.rule join documents d on d.id = r.document
join sections s on s.id = r.section
where f.kind = 'quantity' and (:game = '' or f.game = :game)
order by r.seq, f.id
