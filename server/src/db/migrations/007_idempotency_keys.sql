-- The Idempotency-Key header (IETF httpapi draft) on the Create calls: the first answer to a
-- key, kept 24 hours. A key belongs to a tenant, the user its credential stands for, and one
-- method; the row is written in the transaction of the write it guards (rpc/idempotency.ts).
create table idempotency_keys (
  organization_id text not null references organizations (id) on delete cascade,
  owner_id text not null,
  -- e.g. hivekeep.v1.InspectionService/CreateInspection
  method text not null,
  key text not null,
  -- SHA-256 (hex) of the request message, as its binary protobuf encoding
  fingerprint text not null,
  -- the answer, as the JSON of the response message
  response text not null,
  created_at timestamptz not null,
  primary key (organization_id, owner_id, method, key)
);
create index idempotency_keys_created_idx on idempotency_keys (created_at);
