-- title: Where a timing moment is charted, for the website
-- description: A timing node's game and ruleset (the chart it is on).
-- publish: no
select id, game, ruleset from timing_nodes where id = :id
