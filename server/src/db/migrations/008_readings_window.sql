-- The readings window (issue 29, client-core readings-window.ts): each feed row says until when
-- a windowed Pull may leave it out (held_until: the latest date its inspection had as a reading
-- across the change; null: never), and whether a windowed Pull sends its inspection's whole
-- state after it (with_state: the inspection was a reading before the change). The step beside
-- this file stamps held_until on the rows already there; with_state, which their past does not
-- tell, is set on every change of an inspection but its first.
alter table changes add column held_until timestamptz;
alter table changes add column with_state boolean not null default false;
update changes c set with_state = true
  from (select organization_id, entity_id, min(seq) as first from changes
        where entity = 'inspection' group by organization_id, entity_id) m
  where c.entity = 'inspection' and c.organization_id = m.organization_id
    and c.entity_id = m.entity_id and c.seq > m.first;
