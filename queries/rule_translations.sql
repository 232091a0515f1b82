-- title: A rule's translations
-- description: The rules aligned with a rule (its translations, or its source if it is a translation), with their language, variant, text and alignment score.
select distinct other.rule as id, r.lang, d.variant, r.text, a.score
from alignment_rules me
join alignment_rules other on other.alignment = me.alignment and other.side != me.side
join alignments a on a.id = me.alignment
join rules r on r.id = other.rule
join documents d on d.id = r.document
where me.rule = :id
order by d.ord, r.ord
