-- title: Every name of some cards, for the website
-- description: The names and aliases of the cards of a JSON list of ids, to link them in rule text as they are written.
-- publish: no
select card, alias from card_aliases
where card in (select value from json_each(coalesce(nullif(:cards, ''), '[]')))
order by card, id
