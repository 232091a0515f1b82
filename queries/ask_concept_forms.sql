-- title: Every form of a concept, for kb ask
-- description: The names a card goes by (kind card), a timing moment's names in every language (kind timing), or a glossary term's English forms and renderings (kind term).
-- publish: no
select alias as form from card_aliases where :kind = 'card' and card = :id
union select text from timing_names where :kind = 'timing' and node = :id
union select en from timing_nodes where :kind = 'timing' and id = :id
union select text from term_renderings where :kind = 'term' and term = :id
union select en from terms where :kind = 'term' and id = :id
union select j.value from terms t, json_each(t.forms) j where :kind = 'term' and t.id = :id
