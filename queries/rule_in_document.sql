-- title: A rule of a document by number
-- description: The rule with a given number in a given document (the same rule in another version of a rulebook).
-- publish: no
select r.id, r.number, d.version, d.title as document_title
from rules r join documents d on d.id = r.document
where r.document = :document and r.number = :number
