-- title: What a card is and does
-- description: A card's kind, subtype, spell speed and properties, each with the rule that states it or the printed text it rests on.
select field, value, rule, printed from card_properties where card = :card order by id
