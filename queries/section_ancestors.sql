-- title: A section's ancestors, for the breadcrumbs
-- description: The sections above a section, outermost first.
-- publish: no
with recursive up(id, depth) as (
  select parent, 1 from sections where id = :id and parent is not null
  union all
  select s.parent, up.depth + 1 from sections s join up on s.id = up.id
  where s.parent is not null
)
select s.number, s.title, s.slug, s.lang
from up join sections s on s.id = up.id
order by up.depth desc
