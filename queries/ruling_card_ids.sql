-- title: The cards a ruling names
-- description: The ids of the cards a ruling (a worked example) names.
-- publish: no
select card from ruling_cards where ruling = :id order by card
