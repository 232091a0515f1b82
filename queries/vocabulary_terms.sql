-- title: Glossary forms for the ask vocabulary
-- description: Every form of every curated glossary term: its English term, other English forms and renderings in every language. A rulebook's own glossary terms are left out: their only form is the word as the rulebook writes it, which the search finds as a word, and a term of one game is often an everyday word of another ("Monster", "Block").
-- publish: no
select t.id as term, t.game, t.en, j.value as text from terms t, json_each(t.forms) j
where t.rule is null
union
select t.id as term, t.game, t.en, t.en as text from terms t where t.rule is null
union
select r.term, t.game, t.en, r.text from term_renderings r join terms t on t.id = r.term
where t.rule is null
order by 1, 4
