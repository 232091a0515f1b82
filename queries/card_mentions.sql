-- title: Cards named by rules, for the website
-- description: The cards each rule of a JSON list of ids names (as the build matched them), in the order they are named.
-- publish: no
select rc.ruling as rule, c.id, c.name
from ruling_cards rc join cards c on c.id = rc.card
where rc.ruling in (select value from json_each(coalesce(nullif(:ids, ''), '[]')))
order by rc.ruling, rc.ord
