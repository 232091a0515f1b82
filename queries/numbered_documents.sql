-- title: Numbered documents
-- description: The documents written in a numbering scheme (not plain text, not a translation block), with their source file: what bench/numbered_rules.py checks.
-- publish: no
select id, file, numbering from documents
where numbering not in ('', 'plain') and variant = 'original'
order by ord
