-- title: Translation checks
-- description: What the checks found in the translations of a document: numbers that differ, text left untranslated, non-preferred or inconsistent renderings of glossary terms, missing translations and disagreements between the machine translations.
select c.id, c.target_document, d.variant, c.alignment, c.rule, c.check_name, c.severity, c.detail, c.term
from translation_checks c
join documents d on d.id = c.target_document
where (:document = '' or d.translation_of = :document or c.target_document = :document)
order by c.target_document, c.alignment, c.id
