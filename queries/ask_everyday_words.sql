-- title: Most used English words
-- description: Of a JSON list of words, those the web uses at least :min times (everyday English, never a subject the knowledge base lacks).
-- publish: no
select word from common_words
where count >= cast(:min as integer)
  and word in (select value from json_each(coalesce(nullif(:words, ''), '[]')))
order by word
