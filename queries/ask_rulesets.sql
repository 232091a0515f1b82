-- title: Rulesets a question may name
-- description: The rulesets that split a game's timing or restriction lists (Yu-Gi-Oh!'s TCG and OCG): a question naming one is about it alone.
-- publish: no
select distinct ruleset from timing_nodes where ruleset != '*'
union
select distinct d.ruleset from restrictions x join rules r on r.id = x.rule join documents d on d.id = r.document
order by 1
