-- title: Aligned language pairs, for kb export
-- description: Every (source language, target language) pair of aligned documents.
-- publish: no
select distinct s.lang as source_lang, t.lang as target_lang
from alignments a
join documents s on s.id = a.source_document
join documents t on t.id = a.target_document
order by 1, 2
