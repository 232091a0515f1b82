-- title: The rules of official translations, pair by pair
-- description: For each alignment of an English rulebook with its publisher's own translation, its game, and the texts of its rules on each side (kb build learns from them which words translate which).
-- publish: no
select a.id as alignment, ar.side as side, td.lang as lang, sd.game as game, r.text as text
from alignments a
join documents sd on sd.id = a.source_document
join documents td on td.id = a.target_document
join alignment_rules ar on ar.alignment = a.id
join rules r on r.id = ar.rule
where sd.lang = 'en' and td.lang != 'en' and td.provenance = 'official'
order by a.id, ar.side, r.id
