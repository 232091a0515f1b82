-- title: Cards of a class
-- description: The cards the card facts put in a card class (Counter Trap, effects that change ATK/DEF...).
select card from class_members where class = :cls order by card
