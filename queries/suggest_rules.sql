-- title: Rules whose number or id starts with what was typed
-- description: For suggestions while typing: rules of current documents whose number or id starts with a prefix, shortest first.
-- publish: no
select r.id, r.number, r.text, r.lang, d.title as document_title
from rules r join documents d on d.id = r.document
where d.superseded_by is null
  and ((r.number >= :prefix and r.number < :prefix || '~') or (r.id >= :prefix and r.id < :prefix || '~'))
order by length(r.number), r.number, d.ord
limit coalesce(nullif(:limit, ''), 8)
