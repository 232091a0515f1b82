-- title: Documents by id, for the version pages
-- description: Title, version, effective date, provenance, era and file of the documents of a JSON list of ids.
-- publish: no
select id, title, version, effective, provenance, era, file
from documents where id in (select value from json_each(coalesce(nullif(:documents, ''), '[]')))
