-- title: Rules per game and language
-- description: How many rules, paragraphs and bullets the knowledge base holds for each game, language and provenance.
select
  g.name as game,
  r.lang,
  d.provenance,
  count(distinct r.document) as documents,
  count(*) as rules
from rules r
join games g on g.id = r.game
join documents d on d.id = r.document
group by g.name, r.lang, d.provenance
order by g.name, r.lang, d.provenance
