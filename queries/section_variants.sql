-- title: A document's variants, for the section pages
-- description: An original document and its translations, each with the section of the same slug when it has one.
-- publish: no
select d.id, d.title, d.lang, d.variant, d.provenance, s.slug as section_slug
from documents d
left join sections s on s.id = d.id || ':' || :slug
where d.id = :original or d.translation_of = :original
order by d.ord
