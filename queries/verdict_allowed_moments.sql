-- title: Where a card may be activated
-- description: The moments whose permission facts allow a card, named or as one of the cards that say they activate at that moment, each with the fact; the facts that name the card first.
-- publish: no
select f.id, f.rule, f.subject, f.modality, f.chain, f.quote, f.moment, f.source, f.lang,
       f.subject = 'card:' || :card as specific
from facts f
where f.kind = 'permission' and f.modality in ('can', 'only') and f.moment is not null
  and (f.subject = 'card:' || :card
       or (f.source = 'moment-class'
           and f.subject in (select 'class:' || class from class_members where card = :card)))
order by specific desc, f.rule, f.id
