-- title: Passage vectors
-- description: Every rule's embedding (int8 with its scale) in rules order, for dense retrieval.
-- publish: no
select seq, game, scale, vector from vectors order by seq
