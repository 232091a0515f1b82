-- title: Rules and sections that define a term
-- description: Rules titled with one of a JSON list of lower-case names ("Player: One who plays the game"), and sections so titled ("309 Graveyard"), in documents that are current, of one game or every game.
-- publish: no
select r.id, r.document, d.game, d.title as document_title, d.lang as document_lang, r.number, r.title,
       r.text, r.lang, s.slug, 'rule' as kind
from rules r join documents d on d.id = r.document join sections s on s.id = r.section
where lower(r.title) in (select value from json_each(coalesce(nullif(:names, ''), '[]')))
  and d.superseded_by is null and (:game = '' or r.game = :game)
union all
select r.id, r.document, d.game, d.title as document_title, d.lang as document_lang, s.number, s.title,
       r.text, r.lang, s.slug, 'section' as kind
from sections s join documents d on d.id = s.document
join rules r on r.id = (select r2.id from rules r2 where r2.section = s.id order by r2.ord limit 1)
where lower(s.title) in (select value from json_each(coalesce(nullif(:names, ''), '[]')))
  and d.superseded_by is null and (:game = '' or d.game = :game)
