-- title: An infraction in every language
-- description: The infraction of the given rule id, the one it translates and the other translations of that one: the same infraction in each language the guidelines have.
-- publish: no
with source as (
  select coalesce(translation_of, rule) as id from infractions where rule = :id
)
select i.rule as id, i.lang, i.number, i.name, i.document
from infractions i, source
where i.rule = source.id or i.translation_of = source.id
order by i.rule = source.id desc, i.lang
