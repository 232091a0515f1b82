-- title: Alignment links of a language pair, for kb export tmx
-- description: Every link with rules on both sides from a document in one language (source_lang) to a document in another (target_lang), in order.
-- publish: no
select a.id, a.source_document, a.target_document, a.method, a.score, t.variant
from alignments a
join documents s on s.id = a.source_document
join documents t on t.id = a.target_document
where s.lang = :source_lang and t.lang = :target_lang
  and a.source_ids != '' and a.target_ids != ''
order by a.ord
