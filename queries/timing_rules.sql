-- title: Rules under a timing node
-- description: The rules that describe a phase, step or sub-step, in every document and language.
select tr.node, r.id, r.document, r.lang, r.kind, r.text, d.provenance, r.era
from timing_rules tr
join rules r on r.id = tr.rule
join documents d on d.id = r.document
where tr.node = :node
order by d.ord, r.ord
