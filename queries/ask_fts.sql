-- title: Full-text candidates, for kb ask
-- description: Sequence numbers of the rules matching an FTS5 expression built by kb ask (never user text as typed), of one game or any, best BM25 first.
-- publish: no
select rules_fts.rowid as seq from rules_fts join rules r on r.seq = rules_fts.rowid
where rules_fts match :expression and (:game = '' or r.game = :game)
order by bm25(rules_fts, 2.0, 1.0, 0.6)
limit coalesce(nullif(:limit, ''), -1)
