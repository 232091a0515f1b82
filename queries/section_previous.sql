-- title: The section before, for the section pages
-- description: The section just before a position (ord) in a document.
-- publish: no
select number, title, slug, lang from sections
where document = :document and ord < :ord order by ord desc limit 1
