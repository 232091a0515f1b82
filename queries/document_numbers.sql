-- title: Numbers of a document
-- description: Every rule and section number a document's outline holds, for the check that counts them against the numbers written in its source file (bench/numbered_rules.py).
-- publish: no
select number, 'rule' as kind from rules where document = :document and number != ''
union
select number, 'section' as kind from sections where document = :document and number != ''
order by number
