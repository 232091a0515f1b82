-- title: Rule languages, for the search forms
-- description: Every language rules are written in.
-- publish: no
select distinct lang from rules order by lang
