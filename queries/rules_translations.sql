-- title: Translations of rules
-- description: For each rule of a JSON list of ids, the rules aligned with it (its translations, or its source if it is a translation), with their language, variant and provenance.
-- publish: no
select distinct me.rule, other.rule as id, r.lang, d.variant, d.provenance, d.id as document,
       d.ord, r.ord as rule_ord
from alignment_rules me
join alignment_rules other on other.alignment = me.alignment and other.side != me.side
join rules r on r.id = other.rule
join documents d on d.id = r.document
where me.rule in (select value from json_each(coalesce(nullif(:ids, ''), '[]')))
order by me.rule, d.ord, r.ord
