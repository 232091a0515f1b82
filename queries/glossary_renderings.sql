-- title: Renderings of a term
-- description: For one glossary term: its renderings per language (curated, or read from an official translation's own glossary), the preferred one first, with the translators' notes.
-- publish: no
select lang, source, text, preferred, note, provenance from term_renderings
where term = :term
order by lang, preferred desc, id
