-- title: What happens when
-- description: Every sentence of a game's rules that says what follows from a condition ("If X, Y"), with the concepts of its condition.
-- publish: no
select f.id, f.rule, f.condition, f.outcome, f.concepts, f.quote, f.lang, f.moment, r.document, d.version,
       s.path || ' ' || coalesce(r.title, '') as context
from facts f join rules r on r.id = f.rule join documents d on d.id = r.document
join sections s on s.id = r.section
where f.kind = 'outcome' and (:game = '' or f.game = :game)
order by r.seq, f.id
