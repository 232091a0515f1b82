-- title: Where a rule is shown, for its permalink
-- description: A rule's document and section slug, where its permalink leads.
-- publish: no
select r.id, r.document, s.slug
from rules r join sections s on s.id = r.section
where r.id = :id
