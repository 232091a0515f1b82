-- title: Every rendering of every glossary term
-- description: Each term's renderings as written, with their source, for matching a name typed with a typo.
-- publish: no
select term, source, text from term_renderings order by term, id
