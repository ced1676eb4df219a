-- Hosted mode (HIVEKEEP_AUTH=login): invitations, sign-in throttling and the
-- shared demo organization. Tokens are stored only as SHA-256 hashes.

-- An owner invites an email address into the organization; the invited person
-- signs up or logs in with the token and joins with the role.
create table invitations (
  organization_id text not null references organizations (id) on delete cascade,
  id text not null,
  email text not null,
  role text not null check (role in ('owner', 'member')),
  token_hash text not null unique,
  -- null: issued by an operator (pnpm invite)
  created_by text references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  accepted_at timestamptz,
  accepted_by text references users (id) on delete set null,
  primary key (organization_id, id)
);

-- Fixed-window counters of sign-in attempts, shared by every server process:
-- key is 'address:<ip>' or 'email:<lowercased email>'.
create table auth_throttle (
  key text primary key,
  window_start timestamptz not null,
  attempts integer not null
);
create index auth_throttle_window_idx on auth_throttle (window_start);

-- The demo organization is seeded once; the row claims the work so that
-- several processes starting at once seed it once.
create table demo_seed (
  organization_id text primary key references organizations (id) on delete cascade,
  claimed_at timestamptz not null default now(),
  done_at timestamptz
);

create index api_keys_user_idx on api_keys (organization_id, user_id);
