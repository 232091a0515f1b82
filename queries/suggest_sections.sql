-- title: Sections for suggestions
-- description: The titled sections of current documents (for suggestions while typing), in the corpus's order.
-- publish: no
select s.document, s.slug, s.number, s.title, s.lang, d.title as document_title
from sections s join documents d on d.id = s.document
where d.superseded_by is null and s.slug != 'top' and s.title != ''
order by d.ord, s.ord
