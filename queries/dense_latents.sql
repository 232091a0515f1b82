-- title: Passage latent terms
-- description: The latent terms of the given rules (by seq, a JSON list), with the model they are of: a question compares its own with its ranked candidates' (kb/retrieve/dense.py).
-- publish: no
select l.seq, l.vector, m.value as model
from latents l join meta m on m.key = 'latents_model'
where l.seq in (select value from json_each(coalesce(nullif(:seqs, ''), '[]')))
