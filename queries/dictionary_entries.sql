-- title: Dictionary entries, for kb ask
-- description: The entries of a language's dictionary among a JSON list of words, with their English glosses (a JSON list, best first).
-- publish: no
select word, glosses from dictionary
where lang = :lang
  and word in (select value from json_each(coalesce(nullif(:words, ''), '[]')))
