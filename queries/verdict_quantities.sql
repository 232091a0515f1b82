-- title: Quantities the rules set
-- description: Every number a rule of a game bounds (exactly, at least, at most, a range), with the concept it counts and the concepts of its sentence and section.
-- publish: no
select f.id, f.rule, f.modality, f.low, f.high, f.unit, f.concepts, f.quote, f.lang, f.ruleset,
       r.document, d.version, d.provenance
from facts f join rules r on r.id = f.rule join documents d on d.id = r.document
where f.kind = 'quantity' and (:game = '' or f.game = :game)
order by r.seq, f.id
