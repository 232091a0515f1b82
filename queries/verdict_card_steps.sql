-- title: The rules naming cards, with where they stand
-- description: For a JSON list of card ids, each rule naming one: its section, its place in the document, its ruleset, its text and its curated English gloss.
-- publish: no
select rc.card, r.id as rule, r.section, r.seq, r.ruleset, r.text,
       (select g.text from glosses g where g.rule = r.id and g.lang = 'en' order by g.id limit 1) as gloss
from ruling_cards rc join rules r on r.id = rc.ruling
where rc.card in (select value from json_each(coalesce(nullif(:ids, ''), '[]')))
order by r.seq
