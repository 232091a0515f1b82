-- title: Glossary forms for the ask vocabulary
-- description: Every form of every curated glossary term: its English term, other English forms and renderings in every language. Of a rulebook's own glossary terms, only their renderings in another language than the rulebook's (an official translation's glossary, or the curated glossary's) that no curated term already has (`defined`: 1): the word as the rulebook writes it the search finds as a word, and a term of one game is often an everyday word of another ("Monster", "Block").
-- publish: no
select t.id as term, t.game, t.en, j.value as text, 0 as defined
from terms t, json_each(t.forms) j
where t.rule is null
union
select t.id as term, t.game, t.en, t.en as text, 0 from terms t where t.rule is null
union
select r.term, t.game, t.en, r.text, 0 from term_renderings r join terms t on t.id = r.term
where t.rule is null
union
select r.term, t.game, t.en, r.text, 1 from term_renderings r join terms t on t.id = r.term
join rules x on x.id = t.rule
where r.lang != x.lang
  and r.text not in (
    select c.text from term_renderings c join terms ct on ct.id = c.term where ct.rule is null
  )
order by 1, 4
