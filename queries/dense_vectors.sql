-- title: Passage vectors
-- description: Every rule's embedding, in parts: the model, the rules' seqs, their games and languages, scales and int8 vectors end to end (kb/retrieve/dense.py joins the parts).
-- publish: no
select model, dim, seqs, games, game_of, langs, lang_of, scales, matrix from vector_index order by part
