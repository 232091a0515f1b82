-- title: Rules that open with the term they define
-- description: Rules of current documents that are not machine translations whose text opens with a title ("Player: One who plays the game"), with their document's game and title.
-- publish: no
select r.id as rule, r.document, r.kind, r.number, r.title, r.text, r.lang, d.game,
       d.title as document_title, d.lang as document_lang, s.slug
from rules r
join documents d on d.id = r.document
join sections s on s.id = r.section
where d.superseded_by is null and d.provenance != 'machine' and coalesce(r.title, '') != ''
order by d.ord, r.ord
