-- title: Restriction lists
-- description: The names of the restriction lists the corpus has (DM5, DM6, DMI).
select distinct list from restrictions order by list
