-- title: Rules per game that hold a phrase, for the ask vocabulary
-- description: How many rules of each game hold an FTS5 phrase built by kb build (never user text as typed): how much a name or term is an everyday word of each game.
-- publish: no
select r.game, count(*) as rules
from rules_fts join rules r on r.seq = rules_fts.rowid
where rules_fts match :expression
group by r.game
order by r.game
