-- title: Index words that begin with a stem, for kb ask
-- description: The folded words of the search index that begin with :stem ("initi": initiate, initiating), to find a question's word the index holds in another inflection ("initiated").
-- publish: no
select term from search_vocab
where term >= :stem and term < :stem || '{'
order by term
limit 50
