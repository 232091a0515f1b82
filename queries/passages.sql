-- title: Passages with their context
-- description: Rules by sequence number or id (JSON lists) with their document (and the newest version of it, when it is superseded), section, card mentions, card data, timing nodes and official-terms reading: what kb ask ranks.
select
  r.seq, r.id, r.document, r.section, r.game, r.lang, r.langs, r.kind, r.number, r.label, r.title,
  r.text, r.era, r.ruleset, r.depth, r.line_start, r.line_end, d.provenance, d.file, d.variant, d.translation_of,
  d.superseded_by, d.version,
  d.title as document_title, s.path as section_path,
  (select x.text from readings x where x.rule = r.id) as reading,
  (select group_concat(f.card || ':' || f.field, ' ') from card_facts f where f.rule = r.id) as facts,
  (select group_concat(rc.card, ' ') from ruling_cards rc where rc.ruling = r.id) as card_ids,
  (select group_concat(t.node, ' ') from timing_rules t where t.rule = r.id) as nodes,
  (select group_concat(p.node, ' ') from timing_properties p where p.rule = r.id) as property_nodes
from rules r
join documents d on d.id = r.document
join sections s on s.id = r.section
where r.seq in (select value from json_each(coalesce(nullif(:seqs, ''), '[]')))
   or r.id in (select value from json_each(coalesce(nullif(:ids, ''), '[]')))
order by r.seq
