-- title: The section after, for the section pages
-- description: The section just after a position (ord) in a document.
-- publish: no
select number, title, slug, lang from sections
where document = :document and ord > :ord order by ord limit 1
