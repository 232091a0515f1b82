-- title: What the corpus holds
-- description: How many games, documents, sections, rules and languages the knowledge base holds.
-- publish: no
select (select count(*) from games) as games,
       (select count(*) from documents) as documents,
       (select count(*) from sections) as sections,
       (select count(*) from rules) as rules,
       (select count(distinct lang) from rules) as languages
