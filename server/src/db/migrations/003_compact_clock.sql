-- Replicated rows store their clock grouped by stamp, HLC -> the columns it
-- stamps, e.g. {"000001767225600000:00001:dev": ["name", "lat", "lng"]}
-- ('_deleted' for a delete stamp), instead of column -> HLC, and as json
-- (kept as text) instead of jsonb. A change mostly sets many columns under one
-- stamp, so the old form repeated the same HLC for every column (about half
-- of an inspection row); and the server only ever reads the clock whole, so
-- converting it to jsonb on every write bought nothing. See
-- server/src/store/stored-clock.ts and docs/decisions.md.

update apiaries set clock = coalesce(
  (select jsonb_object_agg(g.hlc, g.columns)
   from (select c.value as hlc, jsonb_agg(c.key order by c.key) as columns
         from jsonb_each_text(apiaries.clock) as c group by c.value) as g),
  '{}'::jsonb);
alter table apiaries alter column clock drop default,
  alter column clock type json using clock::json,
  alter column clock set default '{}'::json;

update hives set clock = coalesce(
  (select jsonb_object_agg(g.hlc, g.columns)
   from (select c.value as hlc, jsonb_agg(c.key order by c.key) as columns
         from jsonb_each_text(hives.clock) as c group by c.value) as g),
  '{}'::jsonb);
alter table hives alter column clock drop default,
  alter column clock type json using clock::json,
  alter column clock set default '{}'::json;

update placements set clock = coalesce(
  (select jsonb_object_agg(g.hlc, g.columns)
   from (select c.value as hlc, jsonb_agg(c.key order by c.key) as columns
         from jsonb_each_text(placements.clock) as c group by c.value) as g),
  '{}'::jsonb);
alter table placements alter column clock drop default,
  alter column clock type json using clock::json,
  alter column clock set default '{}'::json;

update inspections set clock = coalesce(
  (select jsonb_object_agg(g.hlc, g.columns)
   from (select c.value as hlc, jsonb_agg(c.key order by c.key) as columns
         from jsonb_each_text(inspections.clock) as c group by c.value) as g),
  '{}'::jsonb);
alter table inspections alter column clock drop default,
  alter column clock type json using clock::json,
  alter column clock set default '{}'::json;

update queens set clock = coalesce(
  (select jsonb_object_agg(g.hlc, g.columns)
   from (select c.value as hlc, jsonb_agg(c.key order by c.key) as columns
         from jsonb_each_text(queens.clock) as c group by c.value) as g),
  '{}'::jsonb);
alter table queens alter column clock drop default,
  alter column clock type json using clock::json,
  alter column clock set default '{}'::json;

update tasks set clock = coalesce(
  (select jsonb_object_agg(g.hlc, g.columns)
   from (select c.value as hlc, jsonb_agg(c.key order by c.key) as columns
         from jsonb_each_text(tasks.clock) as c group by c.value) as g),
  '{}'::jsonb);
alter table tasks alter column clock drop default,
  alter column clock type json using clock::json,
  alter column clock set default '{}'::json;

update treatments set clock = coalesce(
  (select jsonb_object_agg(g.hlc, g.columns)
   from (select c.value as hlc, jsonb_agg(c.key order by c.key) as columns
         from jsonb_each_text(treatments.clock) as c group by c.value) as g),
  '{}'::jsonb);
alter table treatments alter column clock drop default,
  alter column clock type json using clock::json,
  alter column clock set default '{}'::json;

update harvests set clock = coalesce(
  (select jsonb_object_agg(g.hlc, g.columns)
   from (select c.value as hlc, jsonb_agg(c.key order by c.key) as columns
         from jsonb_each_text(harvests.clock) as c group by c.value) as g),
  '{}'::jsonb);
alter table harvests alter column clock drop default,
  alter column clock type json using clock::json,
  alter column clock set default '{}'::json;

update events set clock = coalesce(
  (select jsonb_object_agg(g.hlc, g.columns)
   from (select c.value as hlc, jsonb_agg(c.key order by c.key) as columns
         from jsonb_each_text(events.clock) as c group by c.value) as g),
  '{}'::jsonb);
alter table events alter column clock drop default,
  alter column clock type json using clock::json,
  alter column clock set default '{}'::json;
