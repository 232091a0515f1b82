-- title: Versions of the rulebooks
-- description: Every version a document of the knowledge base has ("8.01", "2.2.0"): a number a question names is a version only when a document has it, not a rule's number ("CR 10.2.4").
-- publish: no
select distinct version from documents where version is not null and version != '' order by 1
