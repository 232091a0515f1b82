-- title: Glossary terms by any of their forms, for kb terms
-- description: The ids of the terms a word names: a term id, its English term or any rendering, case-insensitive.
-- publish: no
select distinct term from term_renderings where lower(text) = lower(:key)
union select id from terms where lower(id) = lower(:key) or lower(en) = lower(:key)
order by 1
