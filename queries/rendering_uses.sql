-- title: Where a rendering of a term is used
-- description: For an FTS5 phrase built by the code from one rendering of a glossary term: how many rules of each document hold it, in the rendering's language (an English sentence of a Vietnamese article counts for the English rendering), of one game or any.
-- publish: no
select r.document, d.title as document_title, d.lang as document_lang, d.variant,
       d.provenance, count(*) as count
from rules_fts
join rules r on r.seq = rules_fts.rowid
join documents d on d.id = r.document
where rules_fts match :expression and r.lang = :lang and (:game = '' or r.game = :game)
group by r.document
order by count(*) desc, d.ord
