-- title: Words a typo may be read as, for kb ask
-- description: The index's words of four letters or more, the most used first (of equally close words, the one used in more rules wins).
-- publish: no
select term from search_vocab where length(term) >= 4 order by rules desc, term
