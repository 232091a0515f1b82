-- title: Store a build-time value
-- description: Write a value into the meta table (kb build only: the served database is read-only).
-- publish: no
insert or replace into meta (key, value) values (:key, :value)
