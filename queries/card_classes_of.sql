-- title: The classes of a card
-- description: Every card class (Counter Trap, effects that change ATK/DEF...) a card belongs to, by its card facts.
select m.class, c.en, c.game from class_members m join card_classes c on c.id = m.class
where m.card = :card
order by m.class
