-- title: Rows per table, for kb stats
-- description: How many games, documents, sections, rules, repairs, dropped duplicates and build warnings the knowledge base holds.
-- publish: no
select 'games' as name, count(*) as n from games
union all select 'documents', count(*) from documents
union all select 'sections', count(*) from sections
union all select 'rules', count(*) from rules
union all select 'repairs', count(*) from repairs
union all select 'duplicates', count(*) from duplicates
union all select 'build_warnings', count(*) from build_warnings
