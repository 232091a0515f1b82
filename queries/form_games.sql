-- title: Games with documents, for the search forms
-- description: The games the corpus has documents of, in the corpus's order.
-- publish: no
select g.id, g.name from games g
where exists (select 1 from documents d where d.game = g.id)
order by (select min(d.ord) from documents d where d.game = g.id), g.name
