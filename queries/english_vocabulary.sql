-- title: The English words of the rules
-- description: Every folded word of the index that rules written in English hold (kb build keeps the dictionary entries that translate into one).
-- publish: no
select term from search_vocab, json_each(search_vocab.langs)
where json_each.value = 'en'
