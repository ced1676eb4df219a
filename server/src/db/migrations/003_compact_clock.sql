-- Replicated rows store their clock grouped by stamp, HLC -> the columns it
-- stamps, e.g. {"000001767225600000:00001:dev": ["name", "lat", "lng"]}
-- ('_deleted' for a delete stamp), instead of column -> HLC, and as json
-- (kept as text) instead of jsonb. A change mostly sets many columns under one
-- stamp, so the old form repeated the same HLC for every column (about half
-- of an inspection row); and the server only ever reads the clock whole, so
-- converting it to jsonb on every write bought nothing. See
-- server/src/store/stored-clock.ts and docs/decisions.md.

do $$
declare
  t text;
begin
  foreach t in array array['apiaries', 'hives', 'placements', 'inspections', 'queens', 'tasks',
                           'treatments', 'harvests', 'events'] loop
    execute format(
      $sql$update %1$I set clock = coalesce(
             (select jsonb_object_agg(g.hlc, g.columns)
                from (select c.value as hlc, jsonb_agg(c.key order by c.key) as columns
                        from jsonb_each_text(%1$I.clock) as c group by c.value) as g),
             '{}'::jsonb)$sql$, t);
    execute format(
      $sql$alter table %1$I alter column clock drop default,
             alter column clock type json using clock::json,
             alter column clock set default '{}'::json$sql$, t);
  end loop;
end
$$;
