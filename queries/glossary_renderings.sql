-- title: Renderings of a term
-- description: For one glossary term: its curated renderings per language, the preferred one first, with the translators' notes.
-- publish: no
select lang, source, text, preferred, note from term_renderings
where term = :term
order by lang, preferred desc, id
