-- title: A rule and its version, for kb history
-- description: A rule's number and text with its document's version and effective date.
-- publish: no
select r.id, r.number, r.text, r.document, d.version, d.effective
from rules r join documents d on d.id = r.document where r.id = :id
