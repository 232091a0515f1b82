-- title: Rules by number
-- description: Every rule with a given number (103.4, 105.3a) across documents and versions, current versions first.
select r.id, r.document, d.version, d.superseded_by, r.text, r.line_start
from rules r
join documents d on d.id = r.document
where r.number = :number
order by d.superseded_by is not null, d.ord
