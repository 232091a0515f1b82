-- title: A source document by id or file name, for kb compare
-- description: The first source document (not a translation) whose id or file name is the reference, or whose file name starts with it.
-- publish: no
select id from documents
where translation_of is null and (id = :ref or file = :ref or file like :ref || '%')
order by ord
