-- title: Sections that may define a term
-- description: The titled sections of current documents that are not machine translations, each with the first rule under it (the sentence a definition would be), how many sections of its document share its title, and its document's game, language and title; kb.lookups.definitions decides which define their title.
-- publish: no
select s.id as section, s.document, s.number, s.title, s.slug, s.lang as section_lang,
       d.game, d.lang as document_lang, d.title as document_title, d.provenance,
       r.id as rule, r.kind, r.text, r.lang, r.number as rule_number,
       (select count(*) from sections s2 where s2.document = s.document
          and lower(s2.title) = lower(s.title)) as same_title,
       (select count(*) from sections c where c.parent = s.id) as children
from sections s
join documents d on d.id = s.document
join rules r on r.id = (select r2.id from rules r2 where r2.section = s.id order by r2.ord limit 1)
where d.superseded_by is null and d.provenance != 'machine' and s.title != '' and s.level > 0
order by d.ord, s.ord
