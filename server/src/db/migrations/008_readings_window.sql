-- The readings window (issue 29, client-core readings-window.ts): each feed row says until when
-- a windowed Pull may leave it out (held_until: the latest date its inspection had as a reading
-- across the change; null: never), and whether it is its row's first (a later change of a row
-- travels with the row's whole state in a windowed Pull). The step beside this file fills both
-- for the rows already there.
alter table changes add column held_until timestamptz;
alter table changes add column first boolean not null default false;
update changes c set first = true
  from (select organization_id, min(seq) as seq from changes
        group by organization_id, entity, entity_id) m
  where c.organization_id = m.organization_id and c.seq = m.seq;
