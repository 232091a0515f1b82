-- title: A glossary term's other English forms
-- description: The JSON list of the other ways English writes one glossary term.
-- publish: no
select forms from terms where id = :term
