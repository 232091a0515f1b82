-- title: What may happen at a moment
-- description: The properties the timing graph states for a moment (chains, responses, what can or cannot be activated), each with the rule that states it.
select key, value, display, rule from timing_properties where node = :node order by id
