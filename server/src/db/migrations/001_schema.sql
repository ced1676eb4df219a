-- The whole schema of DESIGN.md §3.
--
-- Replicated entity tables share one shape: (organization_id, id) primary key,
-- the entity's columns from the registry (client-core/src/core/entities.ts),
-- all nullable because a partial change for a row not yet created is kept until
-- its create arrives, plus:
--   scope_id  the apiary id, or 'user:<userId>' for personal records
--   clock     column -> HLC of the last accepted write ('_deleted' for a delete)
--   deleted   tombstone; never undone
--   complete  every required column has been written (the row "exists")
-- Every table and index leads with organization_id, so tenants can be sharded.

create table organizations (
  id text primary key,
  name text not null,
  -- Last sequence number of this tenant's change feed. Writers lock this row
  -- (select ... for update) before taking numbers, so feed order = commit order.
  feed_seq bigint not null default 0,
  demo boolean not null default false,
  created_at timestamptz not null default now()
);

create table users (
  id text primary key,
  email text not null,
  password_hash text,
  created_at timestamptz not null default now()
);
create unique index users_email_key on users (lower(email));

create table memberships (
  organization_id text not null references organizations (id) on delete cascade,
  user_id text not null references users (id) on delete cascade,
  role text not null check (role in ('owner', 'member')),
  created_at timestamptz not null default now(),
  primary key (organization_id, user_id)
);
create index memberships_user_idx on memberships (user_id);

-- Secrets are stored only as SHA-256 hashes of the token.
create table sessions (
  token_hash text primary key,
  organization_id text not null references organizations (id) on delete cascade,
  user_id text not null references users (id) on delete cascade,
  demo boolean not null default false,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz
);
create index sessions_org_user_idx on sessions (organization_id, user_id);

create table api_keys (
  organization_id text not null references organizations (id) on delete cascade,
  id text not null,
  user_id text not null references users (id) on delete cascade,
  name text not null,
  prefix text not null,
  key_hash text not null unique,
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz,
  primary key (organization_id, id)
);

create table apiaries (
  organization_id text not null,
  id text not null,
  name text,
  address text,
  lat double precision,
  lng double precision,
  created_at timestamptz,
  updated_at timestamptz,
  scope_id text not null,
  clock jsonb not null default '{}',
  deleted boolean not null default false,
  complete boolean not null default false,
  primary key (organization_id, id)
);

create table hives (
  organization_id text not null,
  id text not null,
  apiary_id text,
  name text,
  type integer,
  status integer,
  boxes integer,
  colony_origin text,
  note text,
  qr_code text,
  photo text,
  created_at timestamptz,
  updated_at timestamptz,
  scope_id text not null,
  clock jsonb not null default '{}',
  deleted boolean not null default false,
  complete boolean not null default false,
  primary key (organization_id, id)
);
create index hives_apiary_idx on hives (organization_id, apiary_id);

create table placements (
  organization_id text not null,
  id text not null,
  hive_id text,
  apiary_id text,
  started_at timestamptz,
  ended_at timestamptz,
  scope_id text not null,
  clock jsonb not null default '{}',
  deleted boolean not null default false,
  complete boolean not null default false,
  primary key (organization_id, id)
);
create index placements_hive_idx on placements (organization_id, hive_id, started_at);

create table inspections (
  organization_id text not null,
  id text not null,
  hive_id text,
  apiary_id text,
  queen_id text,
  date timestamptz,
  note text,
  created_at timestamptz,
  photo_keys jsonb,
  weight_kg double precision,
  temp_hive double precision,
  temp_outside double precision,
  humidity_hive double precision,
  humidity_outside double precision,
  weather text,
  queen_seen boolean,
  eggs_seen boolean,
  covered_larva boolean,
  frames integer,
  brood_frames integer,
  stores integer,
  temperament integer,
  calmness integer,
  queen_cells integer,
  varroa text,
  super_added boolean,
  scope_id text not null,
  clock jsonb not null default '{}',
  deleted boolean not null default false,
  complete boolean not null default false,
  primary key (organization_id, id)
);
create index inspections_hive_date_idx on inspections (organization_id, hive_id, date desc);
create index inspections_date_idx on inspections (organization_id, date desc);

create table queens (
  organization_id text not null,
  id text not null,
  hive_id text,
  year integer,
  marking integer,
  origin text,
  breeder_number text,
  introduced_at timestamptz,
  replaced_at timestamptz,
  active boolean,
  note text,
  created_at timestamptz,
  updated_at timestamptz,
  scope_id text not null,
  clock jsonb not null default '{}',
  deleted boolean not null default false,
  complete boolean not null default false,
  primary key (organization_id, id)
);
create index queens_hive_idx on queens (organization_id, hive_id, introduced_at);

create table tasks (
  organization_id text not null,
  id text not null,
  title text,
  hive_id text,
  apiary_id text,
  due_at timestamptz,
  priority integer,
  done boolean,
  created_at timestamptz,
  scope_id text not null,
  clock jsonb not null default '{}',
  deleted boolean not null default false,
  complete boolean not null default false,
  primary key (organization_id, id)
);
create index tasks_open_idx on tasks (organization_id, done, due_at);
create index tasks_hive_idx on tasks (organization_id, hive_id);

create table treatments (
  organization_id text not null,
  id text not null,
  hive_id text,
  product text,
  active_ingredient text,
  dose text,
  method text,
  batch_number text,
  withdrawal_until timestamptz,
  reason text,
  date timestamptz,
  apiary_id text,
  queen_id text,
  created_at timestamptz,
  scope_id text not null,
  clock jsonb not null default '{}',
  deleted boolean not null default false,
  complete boolean not null default false,
  primary key (organization_id, id)
);
create index treatments_hive_date_idx on treatments (organization_id, hive_id, date desc);

create table harvests (
  organization_id text not null,
  id text not null,
  hive_id text,
  apiary_id text,
  queen_id text,
  date timestamptz,
  variety text,
  amount_kg double precision,
  water_content double precision,
  batch_number text,
  best_before timestamptz,
  note text,
  created_at timestamptz,
  scope_id text not null,
  clock jsonb not null default '{}',
  deleted boolean not null default false,
  complete boolean not null default false,
  primary key (organization_id, id)
);
create index harvests_hive_date_idx on harvests (organization_id, hive_id, date desc);
create index harvests_apiary_date_idx on harvests (organization_id, apiary_id, date desc);

create table events (
  organization_id text not null,
  id text not null,
  type integer,
  apiary_id text,
  hive_id text,
  queen_id text,
  ref_entity text,
  ref_id text,
  amount_kg double precision,
  detail_json text,
  author_id text,
  title text,
  date timestamptz,
  created_at timestamptz,
  scope_id text not null,
  clock jsonb not null default '{}',
  deleted boolean not null default false,
  complete boolean not null default false,
  primary key (organization_id, id)
);
create index events_date_idx on events (organization_id, date desc);
create index events_hive_date_idx on events (organization_id, hive_id, date desc);
create index events_ref_idx on events (organization_id, ref_entity, ref_id);

-- The change feed: the accepted part of every change, in commit order per tenant.
create table changes (
  organization_id text not null,
  seq bigint not null,
  entity text not null,
  entity_id text not null,
  scope_id text not null,
  op smallint not null,
  payload text not null,
  hlc text not null,
  author_id text not null,
  created_at timestamptz not null default now(),
  primary key (organization_id, seq)
);
