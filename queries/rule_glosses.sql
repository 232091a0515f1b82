-- title: Glosses of a rule
-- description: Curated readings of a rule in another language (community glosses, not official), with their notes.
select rule, lang, text, note, source from glosses where rule = :id order by id
