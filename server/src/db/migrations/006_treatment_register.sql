-- The treatment register (issue 26): a treatment names its supplier, and a
-- deleted one keeps who deleted it and when (set with its tombstone), so the
-- register shows it as deleted instead of losing it.
alter table treatments
  add column supplier text,
  add column deleted_by text,
  add column deleted_at timestamptz;
