-- title: Ruling-change notes of the cards rules name
-- description: For each rule of a JSON list of ids, the cards it names (as the build matched them) that carry a note because their rulings changed over time, with the note.
-- publish: no
select rc.ruling as rule, c.id, c.name, c.notes
from ruling_cards rc join cards c on c.id = rc.card
where rc.ruling in (select value from json_each(coalesce(nullif(:ids, ''), '[]')))
  and coalesce(c.notes, '') != ''
order by rc.ruling, rc.ord
