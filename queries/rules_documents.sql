-- title: The documents of rules
-- description: For each rule of a JSON list of ids: its document, that document's version, and the current version that supersedes it, if any.
-- publish: no
select r.id, r.number, r.document, d.version, d.superseded_by, d.translation_of
from rules r join documents d on d.id = r.document
where r.id in (select value from json_each(coalesce(nullif(:ids, ''), '[]')))
