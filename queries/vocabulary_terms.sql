-- title: Glossary forms for the ask vocabulary
-- description: Every form of every glossary term: its English term, other English forms and renderings in every language.
-- publish: no
select t.id as term, t.game, t.en, j.value as text from terms t, json_each(t.forms) j
union
select t.id as term, t.game, t.en, t.en as text from terms t
union
select r.term, t.game, t.en, r.text from term_renderings r join terms t on t.id = r.term
order by 1, 4
