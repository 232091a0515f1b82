-- title: Languages
-- description: Every language rules are written in, with how many rules and documents each has, most rules first.
select lang, count(*) as rules, count(distinct document) as documents
from rules group by lang order by rules desc, lang
