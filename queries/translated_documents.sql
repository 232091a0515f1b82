-- title: Documents with translations
-- description: Every source document that has translation variants, with its game, language and the variants.
select d.id, d.title, d.game, g.name as game_name, d.lang,
       group_concat(t.variant, ',') as variants, count(t.id) as translations
from documents d
join documents t on t.translation_of = d.id
join games g on g.id = d.game
group by d.id
order by d.ord
