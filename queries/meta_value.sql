-- title: A build-time value
-- description: A value kb build precomputed into the meta table (schema version, the ask vocabulary, parsed data files), by key.
-- publish: no
select value from meta where key = :key
