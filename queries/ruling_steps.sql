-- title: Steps of a worked example
-- description: The sentences of a worked example in order, each read as an event (setup, attack, activate, respond, cannot, resolve, result).
select s.ord, s.text, s.event, s.actor, s.cards
from ruling_steps s
where s.ruling = :id
order by s.ord
