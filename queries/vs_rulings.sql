-- title: Rulings that name two cards
-- description: Worked examples first, then other rulings, naming both cards; uses counts how often the first card is activated or chained in the example's steps.
-- publish: no
select ru.*,
  (select count(*) from ruling_steps s where s.ruling = ru.id
     and s.event in ('activate', 'respond')
     and (' ' || s.cards || ' ') like '% ' || :a || ' %') as uses
from rulings ru
where ru.id in (select ruling from ruling_cards where card = :a)
  and ru.id in (select ruling from ruling_cards where card = :b)
order by ru.kind != 'example', ru.id
