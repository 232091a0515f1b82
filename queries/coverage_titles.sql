-- title: The names a game's rules are organised by
-- description: The distinct titles of a game's sections and rules and the English names of its glossary terms (or every game's): what a question's phrase ending in one of them ("infinite loop") is a kind of.
-- publish: no
select distinct s.title from sections s join documents d on d.id = s.document
where coalesce(s.title, '') != '' and (:game = '' or d.game = :game)
union
select distinct r.title from rules r
where coalesce(r.title, '') != '' and (:game = '' or r.game = :game)
union
select distinct t.en from terms t where :game = '' or t.game in (:game, '*')
