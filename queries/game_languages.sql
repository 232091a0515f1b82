-- title: Languages per game
-- description: The languages each game has rules in.
-- publish: no
select distinct game, lang from rules order by game, lang
