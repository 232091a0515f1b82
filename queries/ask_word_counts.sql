-- title: How many rules hold each word, for kb ask
-- description: For each folded word of a JSON list, the number of rules it occurs in (words the index lacks are absent), in which games and in which languages.
-- publish: no
select term, rules, games, langs from search_vocab
where term in (select value from json_each(coalesce(nullif(:words, ''), '[]')))
