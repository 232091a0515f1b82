-- title: Words that name a document, for kb ask
-- description: The documents' versions ("8.01") and the kinds of document ("cr" for comprehensive rules) that no rule's text holds as a word: a question naming one ("FoW CR 8.01") names which rules it asks of, not its subject.
-- publish: no
select distinct kind.value from documents,
  json_each('["' || replace(documents.ruleset, '+', '","') || '"]') as kind
where kind.value != ''
  and kind.value not in (select term from search_vocab)
union
select version from documents where coalesce(version, '') != ''
order by 1
