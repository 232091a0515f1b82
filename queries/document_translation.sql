-- title: What a document translates, for the compare pages
-- description: The source document and variant name of a document (empty for a source document).
-- publish: no
select translation_of, variant from documents where id = :document
