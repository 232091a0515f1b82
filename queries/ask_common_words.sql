-- title: Everyday English words
-- description: Of a JSON list of words, those that are everyday English (never corrected as typos).
-- publish: no
select word from common_words
where word in (select value from json_each(coalesce(nullif(:words, ''), '[]')))
order by word
