-- title: The ruleset of each timing node of a list
-- description: For each timing node id of a JSON list, the ruleset of the chart it is on ('*' for every ruleset).
-- publish: no
select id, ruleset from timing_nodes
where id in (select value from json_each(coalesce(nullif(:ids, ''), '[]')))
