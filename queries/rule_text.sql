-- title: A rule's text
-- description: The text of one rule, by id.
-- publish: no
select text from rules where id = :id
