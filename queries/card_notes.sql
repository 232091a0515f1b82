-- title: Ruling-change notes of cards
-- description: The cards of a JSON list of ids that carry a note (rulings that changed over time), with the note.
select id, name, notes from cards
where id in (select value from json_each(coalesce(nullif(:ids, ''), '[]'))) and notes != ''
order by id
