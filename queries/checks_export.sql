-- title: Translation checks with their source rules, for kb export checks
-- description: Every translation check finding with its variant and the source rules of the link it is about, in order.
-- publish: no
select c.id, c.target_document, d.variant, c.check_name, c.severity, c.rule, c.alignment,
       a.source_ids, c.term, c.detail
from translation_checks c
left join documents d on d.id = c.target_document
left join alignments a on a.id = c.alignment
order by c.id
