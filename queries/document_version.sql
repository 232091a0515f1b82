-- title: A document's version, for kb history
-- description: A document's version and effective date.
-- publish: no
select id as document, version, effective from documents where id = :id
