-- title: Rules by number in versioned rulebooks, for kb history
-- description: The rules with a given number in documents compared with another version, oldest first, of one game or any.
-- publish: no
select r.id from rules r join documents d on d.id = r.document
where r.number = :number and r.kind = 'rule'
  and r.document in (select old_document from rule_changes
                     union select new_document from rule_changes)
  and (:game = '' or r.game = :game)
order by d.effective, d.id, r.ord
