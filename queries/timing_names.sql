-- title: Names of a timing node
-- description: What each language and translation calls a phase, step or sub-step, and where.
select nm.node, nm.lang, nm.text, nm.document, d.variant, nm.section
from timing_names nm
join timing_nodes n on n.id = nm.node
left join documents d on d.id = nm.document
where n.game = :game
order by nm.node, nm.lang, nm.document is null, nm.document, nm.id
