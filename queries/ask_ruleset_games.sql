-- title: The game each ruleset is of, for kb ask
-- description: Each ruleset a document is written for ("ocg", "tcg", "cr"), split at "+", that is no everyday word (used fewer than :min times on the web: not "basic", "tournament"), with the games whose documents use it: a question naming a ruleset of one game only names that game.
-- publish: no
select kind.value as ruleset, group_concat(distinct documents.game) as games
from documents, json_each('["' || replace(documents.ruleset, '+', '","') || '"]') as kind
where kind.value != ''
  and not exists (
    select 1 from common_words w
    where w.word = kind.value and w.count >= cast(coalesce(nullif(:min, ''), '0') as integer)
  )
group by kind.value
order by kind.value
