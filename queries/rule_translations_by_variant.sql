-- title: A source rule's translation links, for kb variant-diff
-- description: The alignment links of a source rule into each translation variant, by variant name.
-- publish: no
select a.id as alignment, a.target_document as document, d.variant, a.method, a.score
from alignment_rules m
join alignments a on a.id = m.alignment
join documents d on d.id = a.target_document
where m.rule = :rule and m.side = 'source'
order by d.variant, a.id
