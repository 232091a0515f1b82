-- title: Glossary renderings written as a word
-- description: The terms one of whose renderings is written as a given word or phrase (case-insensitive), with the rendering's source (en_mt: a machine translation's rendering).
-- publish: no
select distinct term, source from term_renderings where lower(text) = lower(:key)
order by term
