-- title: Whether any rule holds a phrase
-- description: Up to one rule of a game (or any) holding an FTS5 phrase built by the code from a question's words (never user text as typed): whether the corpus mentions it at all.
-- publish: no
select r.id from rules_fts join rules r on r.seq = rules_fts.rowid
where rules_fts match :expression and (:game = '' or r.game = :game)
limit 1
