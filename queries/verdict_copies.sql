-- title: How many copies a restriction status allows
-- description: The quantity facts said of a restriction status (Limited, Semi-Limited, Forbidden): how many copies of such a card a deck may hold.
-- publish: no
select f.id, f.rule, f.low, f.high, f.subject, f.quote, f.lang from facts f
where f.kind = 'quantity' and f.subject = 'term:' || :status
order by f.rule, f.id
