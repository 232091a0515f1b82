-- title: Whether a document has other versions
-- description: 1 when the build compared the document with another version of its rulebook.
-- publish: no
select exists(
  select 1 from rule_changes where old_document = :document or new_document = :document
) as versioned
