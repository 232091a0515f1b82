-- title: One section
-- description: A section by id (document:slug): its place in the document, number, title, path, language, era and source lines.
-- publish: no
select s.id, s.document, s.parent, s.ord, s.level, s.number, s.title, s.slug, s.path,
       s.lang, s.ruleset, s.era, s.line_start, s.line_end
from sections s
where s.id = :id
