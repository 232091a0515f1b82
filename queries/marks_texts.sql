-- title: Text written in one language, for its marks
-- description: Every rule, glossary rendering and moment name written in a language (:lang): what kb build counts the words of, to restore that language's marks to a question typed without them.
-- publish: no
select text from rules where lang = :lang
union all
select text from term_renderings where lang = :lang
union all
select text from timing_names where lang = :lang
