-- title: Games and their documents
-- description: Every game with documents: publisher, how many documents and rules, and the languages they are written in.
select g.id, g.name, g.publisher, count(d.id) as documents,
       coalesce(sum(d.rules), 0) as rules, group_concat(distinct d.lang) as langs
from games g join documents d on d.game = g.id
group by g.id
order by min(d.ord), g.name
