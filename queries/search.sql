-- title: Search the rules
-- description: Full-text search over every rule in every language. Accents are optional (buoc thiet hai finds Bước Thiệt hại, accented matches first); Chinese words of two characters are found (闪电). mode=any matches any word instead of all. superseded_by names the current version of a rule's rulebook when the rule's is an old one.
select
  r.id, r.document, r.game, r.lang, r.kind, r.number, r.label, r.title, r.text,
  s.path as section_path, s.lang as section_lang, r.line_start, d.file, d.provenance, d.era,
  d.title as document_title, d.lang as document_lang, d.version, d.superseded_by,
  round(bm25(rules_fts, 2.0, 1.0, 0.6), 4) as score
from rules_fts
join rules r on r.seq = rules_fts.rowid
join sections s on s.id = r.section
join documents d on d.id = r.document
where rules_fts match kb_match(:q, :mode)
  and (:game = '' or r.game = :game)
  and (:lang = '' or r.lang = :lang)
order by score, r.seq
limit coalesce(nullif(:limit, ''), 20)
