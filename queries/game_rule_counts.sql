-- title: Rules per game
-- description: How many rules each game has.
-- publish: no
select game, count(*) as rules from rules group by game
