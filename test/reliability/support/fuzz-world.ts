/**
 * The world the fuzz suite attacks: a login-mode server with two organizations. A is the
 * caller's (owner A1 and a member A2), B is another tenant (owner B1). Each has apiaries,
 * hives, queens, inspections with photos, tasks (shared and personal), treatments, harvests,
 * events, an API key and an open invitation, so generated requests can name real ids of the
 * caller's own records and of the other tenant's.
 */
import { randomUUID } from "node:crypto";
import { maxPullLimit } from "@hivekeep/client-core/core";
import { expect } from "vitest";
import { type Account, invite, signUp } from "../../support/accounts.ts";
import type { TestServer } from "../../support/server.ts";

export interface Tenant {
  readonly owner: Account;
  /** Part of every name and title the tenant writes. */
  readonly marker: string;
  /** Ids by entity (from the tenant's feed) and `user`, `organization`, `apiKey`, `invitation`. */
  readonly ids: Record<string, string[]>;
  readonly photos: string[];
  readonly emails: string[];
  readonly invitationTokens: string[];
  readonly apiKeySecret: string;
  /** The apiary each hive stood at when the world was built. */
  readonly hiveApiary: Record<string, string>;
}

export interface World {
  readonly t: TestServer;
  readonly A: Tenant;
  readonly B: Tenant;
  /** A2, a member of A. */
  readonly member: Account;
  /** A session token of A1 that was logged out. */
  readonly revokedToken: string;
  /** A1's current session token (renewed when a fuzzed Logout or SwitchOrganization ends it). */
  token: string;
}

export const photoOf = (tag: string): string =>
  `data:image/png;base64,${Buffer.from(tag).toString("base64")}`;

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are checked as they come.
async function ok(t: TestServer, path: string, body: unknown): Promise<any> {
  const r = await t.call(path, body);
  expect(r.status, `${path} ${JSON.stringify(body)} → ${JSON.stringify(r.body)}`).toBe(200);
  return r.body;
}

async function seedTenant(owner: Account, marker: string): Promise<Tenant> {
  const o = owner.t;
  const apiaries: string[] = [];
  for (const n of [1, 2]) {
    const r = await ok(o, "ApiaryService/CreateApiary", {
      name: `${marker} apiary ${n}`,
      address: `${marker} road ${n}`,
      lat: 48.1 + n,
      lng: 11.5,
    });
    apiaries.push(r.apiary.id);
  }
  const hives: string[] = [];
  const hiveApiary: Record<string, string> = {};
  for (const [n, apiaryId] of [apiaries[0], apiaries[0], apiaries[1]].entries()) {
    const r = await ok(o, "HiveService/CreateHive", {
      apiaryId,
      name: `${marker} hive ${n}`,
      type: "HIVE_TYPE_ZANDER",
      boxes: 2,
    });
    hives.push(r.hive.id);
    hiveApiary[r.hive.id] = apiaryId as string;
  }
  const [hive0, hive1] = hives as [string, string, string];
  await ok(o, "QueenService/CreateQueen", {
    hiveId: hive0,
    year: 2025,
    origin: `${marker} queen`,
    introducedAt: "2025-05-01T00:00:00Z",
  });
  const photos = [photoOf(`${marker} photo 1`), photoOf(`${marker} photo 2`)];
  for (const [n, hiveId] of [hive0, hive1].entries()) {
    const r = await ok(o, "InspectionService/CreateInspection", {
      hiveId,
      date: `2026-0${n + 4}-10T09:00:00Z`,
      note: `${marker} inspection ${n}`,
      frames: 8,
    });
    await ok(o, "InspectionService/AddInspectionPhoto", {
      inspectionId: r.inspection.id,
      photo: photos[n],
    });
  }
  await ok(o, "TaskService/CreateTask", { title: `${marker} task hive`, hiveId: hive0 });
  await ok(o, "TaskService/CreateTask", { title: `${marker} task apiary`, apiaryId: apiaries[1] });
  await ok(o, "TaskService/CreateTask", { title: `${marker} task personal` });
  await ok(o, "TreatmentService/CreateTreatment", {
    hiveId: hive0,
    product: `${marker} oxalic acid`,
    date: "2026-01-05T10:00:00Z",
    withdrawalUntil: "2026-02-05T10:00:00Z",
  });
  await ok(o, "HarvestService/CreateHarvest", {
    hiveId: hive1,
    amountKg: 12.5,
    date: "2026-06-20T10:00:00Z",
    variety: `${marker} blossom`,
  });
  const key = await ok(o, "AuthService/CreateApiKey", { name: `${marker} key` });
  const invitation = await invite(owner, "ROLE_MEMBER");

  // Every id of the tenant's feed, by entity.
  const ids: Record<string, string[]> = {};
  let cursor = "";
  for (;;) {
    const page = await ok(o, "SyncService/Pull", { cursor, limit: maxPullLimit });
    for (const c of page.changes ?? []) {
      const list = ids[c.entity] ?? [];
      ids[c.entity] = list;
      if (!list.includes(c.entityId)) list.push(c.entityId);
    }
    cursor = page.nextCursor;
    if (!page.hasMore) break;
  }
  ids.user = [owner.userId];
  ids.organization = [owner.organizationId];
  ids.apiKey = [key.key.id];
  ids.invitation = [invitation.token];
  return {
    owner,
    marker,
    ids,
    photos,
    emails: [owner.email, invitation.email],
    invitationTokens: [invitation.token],
    apiKeySecret: key.apiKey,
    hiveApiary,
  };
}

/** Signs up both tenants and fills them; A1 is the caller of every fuzzed request. */
export async function buildWorld(t: TestServer): Promise<World> {
  const nonce = randomUUID().slice(0, 8);
  const a1 = await signUp(t, { organizationName: `Org A fuzz${nonce}` });
  const b1 = await signUp(t, { organizationName: `Org B tenantB${nonce}` });
  const invitation = await invite(a1, "ROLE_MEMBER");
  const a2 = await signUp(t, { email: invitation.email, invitationToken: invitation.token });
  const A = await seedTenant(a1, `tenantA${nonce}`);
  const B = await seedTenant(b1, `tenantB${nonce}`);
  A.ids.user?.push(a2.userId);
  A.emails.push(a2.email);
  // A session of A1 that has ended.
  const login = await ok(t, "AuthService/Login", { email: a1.email, password: a1.password });
  await ok(t.as(login.sessionToken), "AuthService/Logout", {});
  return { t, A, B, member: a2, revokedToken: login.sessionToken, token: a1.token };
}

/** A1 signs in again (after a fuzzed Logout or SwitchOrganization ended the session). */
export async function renewSession(w: World): Promise<void> {
  const r = await w.t.call("AuthService/Login", {
    email: w.A.owner.email,
    password: w.A.owner.password,
    organizationId: w.A.owner.organizationId,
  });
  expect(r.status, `A1 signs in again: ${JSON.stringify(r.body)}`).toBe(200);
  w.token = r.body.sessionToken;
}

/** Whether A1's current session still works. */
export async function sessionAlive(w: World): Promise<boolean> {
  const r = await w.t.as(w.token).call("AuthService/WhoAmI", {});
  return r.status === 200 && r.body?.organization?.id === w.A.owner.organizationId;
}

/**
 * The head of a tenant's feed as its owner sees it: Pull from `cursor` (a position at or
 * before the head) until the end, answering the new position and whether any change came.
 */
export async function feedHead(
  t: TestServer,
  token: string,
  cursor: string,
): Promise<{ cursor: string; changes: number }> {
  let at = cursor;
  let changes = 0;
  for (;;) {
    const r = await t.as(token).call("SyncService/Pull", { cursor: at, limit: maxPullLimit });
    expect(r.status, `feed head: ${JSON.stringify(r.body)}`).toBe(200);
    changes += r.body.changes?.length ?? 0;
    at = r.body.nextCursor;
    if (!r.body.hasMore) return { cursor: at, changes };
  }
}

/**
 * The heads of organizations' feeds, read from the server's database: the last change's
 * sequence number and the organization's `feed_seq` (what Pull reads as the head). Cheap
 * enough to read after every fuzzed call; the suite checks once per method that Pull agrees.
 */
export async function feedHeads(
  t: TestServer,
  organizationIds: readonly string[],
): Promise<Record<string, string>> {
  const rows = await t.server.db.query<{ id: string; feed_seq: unknown; last: unknown }>(
    `select o.id, o.feed_seq,
            (select max(c.seq) from changes c where c.organization_id = o.id) as last
       from organizations o where o.id = $1 or o.id = $2`,
    [organizationIds[0], organizationIds[1] ?? organizationIds[0]],
  );
  return Object.fromEntries(rows.map((r) => [r.id, `${r.feed_seq}/${r.last ?? 0}`]));
}

/** Every table a call may write (the feed's `changes` aside: see feedHeads). */
const writtenTables = [
  "organizations",
  "users",
  "memberships",
  "sessions",
  "api_keys",
  "invitations",
  "apiaries",
  "hives",
  "placements",
  "inspections",
  "queens",
  "tasks",
  "treatments",
  "harvests",
  "events",
];

/**
 * How many rows each table holds, in one query: a refused call must leave every count as it
 * was (a row inserted and not rolled back is a half-written call even where no feed change
 * shows it, e.g. an API key or a session).
 */
export async function rowCounts(t: TestServer): Promise<Record<string, number>> {
  const [row] = await t.server.db.query<Record<string, unknown>>(
    `select ${writtenTables.map((n) => `(select count(*) from ${n}) as ${n}`).join(", ")}`,
  );
  return Object.fromEntries(writtenTables.map((n) => [n, Number(row?.[n] ?? -1)]));
}
