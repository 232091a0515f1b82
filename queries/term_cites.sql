-- title: What a glossary entry cites
-- description: The rules and sections a rulebook's glossary entry refers to ("See rule 101.4"), in the order it names them; term is a terms.id.
select x.kind, x.written, x.target_rule, x.target_section,
       coalesce(tr.number, ts.number, '') as number,
       coalesce(ts.title, '') as section_title, coalesce(ts.anchor, '') as anchor
from terms t
join rule_references x on x.rule = t.rule and x.kind != 'term'
left join rules tr on tr.id = x.target_rule
left join sections ts on ts.id = x.target_section
where t.id = :term
order by x.start
