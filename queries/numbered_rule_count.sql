-- title: Numbered rules of a document, for kb diff
-- description: How many numbered rules a document has: the total a version diff accounts for.
-- publish: no
select count(*) from rules where document = :document and kind = 'rule'
