-- title: What the rules say about each moment
-- description: Chains, responses, priority and what may or may not be activated at each timing node, each with the rule that states it.
select
  p.node, p.key, p.value, p.display, p.rule, r.document, r.lang, d.provenance, r.era
from timing_properties p
join timing_nodes n on n.id = p.node
join rules r on r.id = p.rule
join documents d on d.id = r.document
where n.game = :game
order by p.node, p.key, p.value, d.ord, r.ord
