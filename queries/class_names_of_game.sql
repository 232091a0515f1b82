-- title: Names of card classes
-- description: Every name of every card class of a game (or of every game), in every language.
select n.class, n.lang, n.text, c.game from class_names n join card_classes c on c.id = n.class
where (:game = '' or c.game = :game)
order by n.class, n.id
