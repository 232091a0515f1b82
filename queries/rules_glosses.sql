-- title: Glosses of rules
-- description: Curated readings in another language (community glosses, not official) of each rule of a JSON list of ids, with their notes.
-- publish: no
select rule, lang, text, note, source from glosses
where rule in (select value from json_each(coalesce(nullif(:ids, ''), '[]')))
order by rule, id
