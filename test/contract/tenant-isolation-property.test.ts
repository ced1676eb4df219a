/**
 * Tenant isolation in hosted mode (HIVEKEEP_AUTH=login) as a fast-check property, over HTTP
 * JSON with each user's own bearer token. Every run signs up two fresh tenants: organization
 * A with its owner A1 and a member A2 who joined by invitation, and organization B with its
 * owner B1. They then run a random sequence of
 *
 * - own writes (every Create / Update / Delete / RelocateHive / SetTaskDone /
 *   AddInspectionPhoto, a Push of a hive, shared and personal tasks), recorded in a model of
 *   which ids belong to which tenant and, for personal tasks, to which user;
 * - cross-tenant probes: Get* of the other tenant's ids → not_found; writes on them or that
 *   reference their hive or apiary → not_found (CreateTask with their apiary: invalid_argument,
 *   as for any unknown apiary); a Push into their apiary scope or onto their row →
 *   permission_denied; List* filtered by their ids → empty. After every refused write the
 *   owner of the row reads it back unchanged (as the model has it). A Push that reuses one
 *   of their apiary or hive ids in the actor's own scope succeeds as it would with a fresh
 *   id (ids are per tenant; a refusal would reveal that the id exists elsewhere) and makes
 *   a row of the actor's tenant, leaving theirs alone;
 * - probes inside organization A on the other user's personal tasks (GetTask / SetTaskDone →
 *   not_found, a Push into their `user:` scope or onto their task → permission_denied);
 * - reads (every List*, ListEvents, StatsService/GetDashboard, SyncService/Pull).
 *
 * Every reply a user gets is checked: no name or title written by the other tenant (each
 * carries its tenant's marker) and no personal task title of another user (each carries its
 * user's marker) appears anywhere in it, and no successful reply contains an id of the other
 * tenant (its rows, events, organization and users) or of another user's personal task. Pull
 * only shows the reader's tenant's apiary scopes and the reader's own `user:` scope.
 *
 * Within organization A both users see the same shared data: what one creates or changes the
 * other reads at once, identically; at the end of every run both list the same rows, get the
 * same dashboard (apart from task figures, which count personal tasks) and have pulled the
 * same shared changes in the same order, while each sees only their own personal tasks. Lists
 * hold exactly the rows the model expects.
 */
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, invite, loginEnv, relaxedThrottle, signUp } from "../support/accounts.ts";
import { databaseKinds } from "../support/databases.ts";
import { type JsonReply, startTestServer, type TestServer } from "../support/server.ts";
import { device, type TestChange, toJson, upsert } from "../support/sync.ts";

const numRuns = 20;
const minOps = 8;
const maxOps = 15;

// ---- the world of one run: accounts and the model ------------------------------------------

type UserKey = "A1" | "A2" | "B1";
type TenantKey = "A" | "B";
const userKeys: readonly UserKey[] = ["A1", "A2", "B1"];
const tenantOf = (u: UserKey): TenantKey => (u === "B1" ? "B" : "A");
const otherTenant = (t: TenantKey): TenantKey => (t === "A" ? "B" : "A");
const ownerOf = (t: TenantKey): UserKey => (t === "A" ? "A1" : "B1");
/** The other user of the same organization (only organization A has two). */
const peerOf = (u: UserKey): UserKey | undefined =>
  u === "A1" ? "A2" : u === "A2" ? "A1" : undefined;
const usersOf = (t: TenantKey): UserKey[] => userKeys.filter((u) => tenantOf(u) === t);

interface ApiaryModel {
  name: string;
  live: boolean;
}
interface HiveModel {
  name: string;
  apiaryId: string;
  live: boolean;
}
interface TaskModel {
  title: string;
  done: boolean;
  /** The task's hive ("" = none): DeleteHive tombstones the hive's open tasks (issue 25). */
  hiveId: string;
  live: boolean;
  /** A personal task (scope `user:<id>`): its user. */
  personalOf?: UserKey;
}

interface TenantModel {
  readonly organizationId: string;
  /** Part of every name and title the tenant writes (personal task titles aside). */
  readonly marker: string;
  readonly apiaries: Map<string, ApiaryModel>;
  readonly hives: Map<string, HiveModel>;
  readonly inspections: Map<string, { hiveId: string; photos: string[] }>;
  readonly queens: Map<string, { hiveId: string; year: number }>;
  readonly tasks: Map<string, TaskModel>;
  readonly treatments: Map<string, { product: string }>;
  readonly harvests: Map<string, { amountKg: number; live: boolean }>;
  /** Event ids (the server makes them), learned from the tenant's own ListEvents. */
  readonly events: Set<string>;
}

interface FeedModel {
  cursor: string;
  /** `entity/entityId/op/hlc` of every change pulled outside a personal scope, in order. */
  readonly shared: string[];
  /** Entity ids pulled in the user's own personal scope. */
  readonly personal: Set<string>;
}

interface World {
  readonly accounts: Record<UserKey, Account>;
  readonly tenants: Record<TenantKey, TenantModel>;
  /** Part of every personal task title of the user. */
  readonly privateMarker: Record<UserKey, string>;
  readonly feeds: Record<UserKey, FeedModel>;
  readonly device: ReturnType<typeof device>;
  serial: number;
}

const emptyTenant = (organizationId: string, marker: string): TenantModel => ({
  organizationId,
  marker,
  apiaries: new Map(),
  hives: new Map(),
  inspections: new Map(),
  queens: new Map(),
  tasks: new Map(),
  treatments: new Map(),
  harvests: new Map(),
  events: new Set(),
});

async function newWorld(t: TestServer): Promise<World> {
  const nonce = randomUUID().slice(0, 8);
  const a1 = await signUp(t, { organizationName: `Org A ${nonce}` });
  const b1 = await signUp(t, { organizationName: `Org B ${nonce}` });
  const invitation = await invite(a1, "ROLE_MEMBER");
  const a2 = await signUp(t, { email: invitation.email, invitationToken: invitation.token });
  expect(a2.organizationId).toBe(a1.organizationId);
  expect(b1.organizationId).not.toBe(a1.organizationId);
  const feed = (): FeedModel => ({ cursor: "", shared: [], personal: new Set() });
  return {
    accounts: { A1: a1, A2: a2, B1: b1 },
    tenants: {
      A: emptyTenant(a1.organizationId, `tenantA${nonce}`),
      B: emptyTenant(b1.organizationId, `tenantB${nonce}`),
    },
    privateMarker: {
      A1: `privateA1${nonce}`,
      A2: `privateA2${nonce}`,
      B1: `privateB1${nonce}`,
    },
    feeds: { A1: feed(), A2: feed(), B1: feed() },
    device: device(`prop-${nonce}`),
    serial: 0,
  };
}

const tenantModel = (w: World, u: UserKey): TenantModel => w.tenants[tenantOf(u)];
const name = (w: World, u: UserKey, what: string): string =>
  `${tenantModel(w, u).marker} ${what} ${++w.serial}`;

/** Every id the tenant's users may meet in replies: its rows, events, organization, users. */
function tenantIds(w: World, t: TenantKey): Set<string> {
  const m = w.tenants[t];
  return new Set([
    m.organizationId,
    ...usersOf(t).map((u) => w.accounts[u].userId),
    ...m.apiaries.keys(),
    ...m.hives.keys(),
    ...m.inspections.keys(),
    ...m.queens.keys(),
    ...m.tasks.keys(),
    ...m.treatments.keys(),
    ...m.harvests.keys(),
    ...m.events,
  ]);
}

/** Ids that must never appear in a successful reply to the user. */
function forbiddenIds(w: World, u: UserKey): Set<string> {
  const own = tenantIds(w, tenantOf(u));
  const forbidden = new Set(
    [...tenantIds(w, otherTenant(tenantOf(u)))].filter((id) => !own.has(id)),
  );
  for (const [id, task] of tenantModel(w, u).tasks) {
    if (task.personalOf !== undefined && task.personalOf !== u) forbidden.add(id);
  }
  return forbidden;
}

/** Strings that must never appear in any reply to the user. */
const forbiddenMarkers = (w: World, u: UserKey): string[] => [
  w.tenants[otherTenant(tenantOf(u))].marker,
  ...userKeys.filter((v) => v !== u).map((v) => w.privateMarker[v]),
];

const uuidPattern = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** Checks one reply to the user for the other tenant's (and other users' private) data. */
function expectNoLeak(w: World, u: UserKey, what: string, r: JsonReply): void {
  const text = JSON.stringify(r.body ?? null);
  for (const marker of forbiddenMarkers(w, u)) {
    expect(text.includes(marker), `${u} ${what} shows ${marker}: ${text}`).toBe(false);
  }
  if (r.status !== 200) return;
  const forbidden = forbiddenIds(w, u);
  const leaked = [...new Set(text.match(uuidPattern) ?? [])].filter((id) => forbidden.has(id));
  expect(leaked, `${u} ${what} shows ids of others: ${text}`).toEqual([]);
}

/** A call as the user, its reply checked for leaks. */
async function call(w: World, u: UserKey, path: string, body: unknown): Promise<JsonReply> {
  const r = await w.accounts[u].t.call(path, body);
  expectNoLeak(w, u, `${path} ${JSON.stringify(body)}`, r);
  return r;
}

/** Like call, expecting HTTP 200; answers the body. */
// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are checked by the tests.
async function ok(w: World, u: UserKey, path: string, body: unknown): Promise<any> {
  const r = await call(w, u, path, body);
  expect(r.status, `${u} ${path} ${JSON.stringify(body)} → ${JSON.stringify(r.body)}`).toBe(200);
  return r.body;
}

/** Like call, expecting an error of that status and code. */
async function refused(
  w: World,
  u: UserKey,
  path: string,
  body: unknown,
  status: number,
  code: string,
): Promise<void> {
  const r = await call(w, u, path, body);
  const what = `${u} ${path} ${JSON.stringify(body)} → ${r.status} ${JSON.stringify(r.body)}`;
  expect(r.status, what).toBe(status);
  expect(r.body?.code, what).toBe(code);
}

const notFound = (w: World, u: UserKey, path: string, body: unknown) =>
  refused(w, u, path, body, 404, "not_found");

/** A Push of one change (over HTTP JSON, as SyncService/Push takes it). */
const push = (w: World, u: UserKey, change: TestChange): Promise<JsonReply> =>
  call(w, u, "SyncService/Push", { changes: [toJson(change)] });

/** A Push that must be refused as permission_denied. */
async function pushDenied(w: World, u: UserKey, change: TestChange): Promise<void> {
  const r = await push(w, u, change);
  const what = `${u} pushed ${JSON.stringify(change)} → ${r.status} ${JSON.stringify(r.body)}`;
  expect(r.status, what).toBe(403);
  expect(r.body?.code, what).toBe("permission_denied");
}

// ---- reading a row back as its owner sees it -------------------------------------------------

type Kind = "apiary" | "hive" | "inspection" | "queen" | "task" | "treatment" | "harvest";

const getPath: Record<Kind, string> = {
  apiary: "ApiaryService/GetApiary",
  hive: "HiveService/GetHive",
  inspection: "InspectionService/GetInspection",
  queen: "QueenService/GetQueen",
  task: "TaskService/GetTask",
  treatment: "TreatmentService/GetTreatment",
  harvest: "HarvestService/GetHarvest",
};

/** The row as its tenant's model has it, read by a user who may see it. */
async function expectAsModeled(w: World, t: TenantKey, kind: Kind, id: string): Promise<void> {
  const m = w.tenants[t];
  const personalOf = kind === "task" ? m.tasks.get(id)?.personalOf : undefined;
  const reader = personalOf ?? ownerOf(t);
  const r = await call(w, reader, getPath[kind], { id });
  const what = `${reader} ${getPath[kind]} ${id} → ${r.status} ${JSON.stringify(r.body)}`;
  const live =
    kind === "apiary"
      ? m.apiaries.get(id)?.live
      : kind === "hive"
        ? m.hives.get(id)?.live
        : kind === "harvest"
          ? m.harvests.get(id)?.live
          : kind === "task"
            ? m.tasks.get(id)?.live
            : true;
  if (!live) {
    expect(r.status, what).toBe(404);
    return;
  }
  expect(r.status, what).toBe(200);
  const row = r.body[kind];
  expect(row.id, what).toBe(id);
  expect(row.organizationId, what).toBe(m.organizationId);
  switch (kind) {
    case "apiary":
      expect(row.name, what).toBe(m.apiaries.get(id)?.name);
      break;
    case "hive": {
      const hive = m.hives.get(id);
      expect([row.name, row.apiaryId], what).toEqual([hive?.name, hive?.apiaryId]);
      break;
    }
    case "inspection":
      expect(row.photoKeys ?? [], what).toEqual(m.inspections.get(id)?.photos);
      break;
    case "queen":
      expect(row.year, what).toBe(m.queens.get(id)?.year);
      break;
    case "task": {
      const task = m.tasks.get(id);
      expect([row.title, row.done ?? false], what).toEqual([task?.title, task?.done]);
      break;
    }
    case "treatment":
      expect(row.product, what).toBe(m.treatments.get(id)?.product);
      break;
    case "harvest":
      expect(row.amountKg, what).toBe(m.harvests.get(id)?.amountKg);
      break;
  }
}

/**
 * After the user wrote a row: the other user of organization A reads it exactly as the
 * writer got it back, or, for a personal task, not at all.
 */
async function expectPeerSees(
  w: World,
  u: UserKey,
  kind: Kind,
  // biome-ignore lint/suspicious/noExplicitAny: a JSON row as the writer got it.
  row: any,
  personal = false,
): Promise<void> {
  const peer = peerOf(u);
  if (peer === undefined) return;
  if (personal) {
    await notFound(w, peer, getPath[kind], { id: row.id });
    return;
  }
  const body = await ok(w, peer, getPath[kind], { id: row.id });
  expect(body[kind], `${peer} reads the ${kind} ${u} wrote`).toEqual(row);
}

// ---- operations ------------------------------------------------------------------------------

const ownOps = [
  "createApiary",
  "createHive",
  "pushHive",
  "renameApiary",
  "renameHive",
  "deleteHive",
  "deleteApiary",
  "relocateHive",
  "createInspection",
  "addPhoto",
  "createQueen",
  "updateQueen",
  "createTask",
  "createPersonalTask",
  "setTaskDone",
  "createTreatment",
  "createHarvest",
  "deleteHarvest",
] as const;

const crossProbes = [
  "get",
  "updateApiary",
  "deleteApiary",
  "updateHive",
  "deleteHive",
  "relocateTheirHive",
  "relocateToTheirApiary",
  "createHive",
  "createInspection",
  "addPhoto",
  "removePhoto",
  "createQueen",
  "updateQueen",
  "setTaskDone",
  "createTaskOnHive",
  "createTaskInApiary",
  "createTreatment",
  "createHarvest",
  "deleteHarvest",
  "pushIntoTheirScope",
  "pushOntoTheirRow",
  "pushShadow",
  "listFiltered",
] as const;

const privateProbes = ["get", "setTaskDone", "pushIntoTheirScope", "pushOntoTheirTask"] as const;

const views = [
  "apiaries",
  "hives",
  "inspections",
  "queens",
  "tasks",
  "treatments",
  "harvests",
  "events",
  "dashboard",
  "pull",
] as const;
type View = (typeof views)[number];

type Op =
  | {
      t: "own";
      actor: UserKey;
      op: (typeof ownOps)[number];
      pick: number;
      pick2: number;
      flag: boolean;
    }
  | { t: "cross"; actor: UserKey; probe: (typeof crossProbes)[number]; pick: number; pick2: number }
  | { t: "private"; actor: "A1" | "A2"; probe: (typeof privateProbes)[number]; pick: number }
  | { t: "read"; actor: UserKey; view: View };

const userArb = fc.constantFrom<UserKey>("A1", "A2", "B1");
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      t: fc.constant("own" as const),
      actor: userArb,
      op: fc.constantFrom(...ownOps),
      pick: fc.nat(),
      pick2: fc.nat(),
      flag: fc.boolean(),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant("cross" as const),
      actor: userArb,
      probe: fc.constantFrom(...crossProbes),
      pick: fc.nat(),
      pick2: fc.nat(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant("private" as const),
      actor: fc.constantFrom<"A1" | "A2">("A1", "A2"),
      probe: fc.constantFrom(...privateProbes),
      pick: fc.nat(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant("read" as const),
      actor: userArb,
      view: fc.constantFrom(...views),
    }),
  },
);

/** The n-th (modulo) of the entries that match, or undefined when none does. */
function pick<V>(
  map: Map<string, V>,
  n: number,
  match: (v: V, id: string) => boolean = () => true,
): [string, V] | undefined {
  const found = [...map].filter(([id, v]) => match(v, id));
  return found.length === 0 ? undefined : found[n % found.length];
}

const photo = (w: World): string =>
  `data:image/png;base64,${Buffer.from(`photo ${++w.serial}`).toString("base64")}`;

async function runOwn(w: World, op: Extract<Op, { t: "own" }>): Promise<void> {
  const { actor: u, pick: n, pick2: n2, flag } = op;
  const m = tenantModel(w, u);
  const liveApiary = () => pick(m.apiaries, n, (a) => a.live);
  const liveHive = () => pick(m.hives, n, (h) => h.live);
  switch (op.op) {
    case "createApiary": {
      const apiary = (await ok(w, u, "ApiaryService/CreateApiary", { name: name(w, u, "apiary") }))
        .apiary;
      m.apiaries.set(apiary.id, { name: apiary.name, live: true });
      await expectPeerSees(w, u, "apiary", apiary);
      return;
    }
    case "createHive": {
      const a = liveApiary();
      if (!a) return;
      const body = { apiaryId: a[0], name: name(w, u, "hive") };
      const hive = (await ok(w, u, "HiveService/CreateHive", body)).hive;
      m.hives.set(hive.id, { name: hive.name, apiaryId: a[0], live: true });
      await expectPeerSees(w, u, "hive", hive);
      return;
    }
    case "pushHive": {
      const a = liveApiary();
      if (!a) return;
      const id = randomUUID();
      const hiveName = name(w, u, "pushed hive");
      const change = upsert("hive", id, a[0], w.device.stamp(), {
        apiary_id: a[0],
        name: hiveName,
        status: 1,
      });
      const r = await push(w, u, change);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      m.hives.set(id, { name: hiveName, apiaryId: a[0], live: true });
      await expectAsModeled(w, tenantOf(u), "hive", id);
      const peer = peerOf(u);
      if (peer) {
        const got = (await ok(w, peer, "HiveService/GetHive", { id })).hive;
        expect([got.name, got.apiaryId]).toEqual([hiveName, a[0]]);
      }
      return;
    }
    case "renameApiary": {
      const a = liveApiary();
      if (!a) return;
      const body = { id: a[0], name: name(w, u, "renamed apiary") };
      const apiary = (await ok(w, u, "ApiaryService/UpdateApiary", body)).apiary;
      a[1].name = body.name;
      await expectPeerSees(w, u, "apiary", apiary);
      return;
    }
    case "renameHive": {
      const h = liveHive();
      if (!h) return;
      const body = { hive: { id: h[0], name: name(w, u, "renamed hive") } };
      const hive = (await ok(w, u, "HiveService/UpdateHive", body)).hive;
      h[1].name = body.hive.name;
      await expectPeerSees(w, u, "hive", hive);
      return;
    }
    case "deleteHive": {
      const h = liveHive();
      if (!h) return;
      await ok(w, u, "HiveService/DeleteHive", { id: h[0] });
      h[1].live = false;
      // Its open tasks go with it; done ones stay as history.
      for (const t of m.tasks.values()) if (t.hiveId === h[0] && !t.done) t.live = false;
      const peer = peerOf(u);
      if (peer) await notFound(w, peer, "HiveService/GetHive", { id: h[0] });
      return;
    }
    case "deleteApiary": {
      const a = pick(
        m.apiaries,
        n,
        (a, id) => a.live && ![...m.hives.values()].some((h) => h.live && h.apiaryId === id),
      );
      if (!a) return;
      await ok(w, u, "ApiaryService/DeleteApiary", { id: a[0] });
      a[1].live = false;
      const peer = peerOf(u);
      if (peer) await notFound(w, peer, "ApiaryService/GetApiary", { id: a[0] });
      return;
    }
    case "relocateHive": {
      const h = liveHive();
      if (!h) return;
      const target = pick(m.apiaries, n2, (a, id) => a.live && id !== h[1].apiaryId);
      if (!target) return;
      const body = { id: h[0], targetApiaryId: target[0] };
      const hive = (await ok(w, u, "HiveService/RelocateHive", body)).hive;
      h[1].apiaryId = target[0];
      await expectPeerSees(w, u, "hive", hive);
      return;
    }
    case "createInspection": {
      const h = liveHive();
      if (!h) return;
      const body = { hiveId: h[0], note: name(w, u, "inspection") };
      const inspection = (await ok(w, u, "InspectionService/CreateInspection", body)).inspection;
      m.inspections.set(inspection.id, { hiveId: h[0], photos: [] });
      await expectPeerSees(w, u, "inspection", inspection);
      return;
    }
    case "addPhoto": {
      const i = pick(m.inspections, n, (i) => m.hives.get(i.hiveId)?.live === true);
      if (!i) return;
      const body = { inspectionId: i[0], photo: photo(w) };
      const inspection = (await ok(w, u, "InspectionService/AddInspectionPhoto", body)).inspection;
      i[1].photos.push(body.photo);
      await expectPeerSees(w, u, "inspection", inspection);
      return;
    }
    case "createQueen": {
      const h = liveHive();
      if (!h) return;
      const body = { hiveId: h[0], year: 2020 + (n2 % 7), note: name(w, u, "queen") };
      const queen = (await ok(w, u, "QueenService/CreateQueen", body)).queen;
      m.queens.set(queen.id, { hiveId: h[0], year: body.year });
      await expectPeerSees(w, u, "queen", queen);
      return;
    }
    case "updateQueen": {
      const q = pick(m.queens, n, (q) => m.hives.get(q.hiveId)?.live === true);
      if (!q) return;
      const year = 2020 + (n2 % 7);
      const body = { queen: { id: q[0], hiveId: q[1].hiveId, year, note: name(w, u, "queen") } };
      const queen = (await ok(w, u, "QueenService/UpdateQueen", body)).queen;
      q[1].year = year;
      await expectPeerSees(w, u, "queen", queen);
      return;
    }
    case "createTask": {
      // On a hive (the task inherits its apiary) or in an apiary.
      const ref = flag
        ? liveHive() && { hiveId: liveHive()?.[0] }
        : liveApiary() && { apiaryId: liveApiary()?.[0] };
      if (!ref) return;
      const task = (await ok(w, u, "TaskService/CreateTask", { title: name(w, u, "task"), ...ref }))
        .task;
      m.tasks.set(task.id, {
        title: task.title,
        done: false,
        hiveId: task.hiveId ?? "",
        live: true,
      });
      await expectPeerSees(w, u, "task", task);
      return;
    }
    case "createPersonalTask": {
      const title = `${w.privateMarker[u]} todo ${++w.serial}`;
      const task = (await ok(w, u, "TaskService/CreateTask", { title })).task;
      expect(task.apiaryId).toBeUndefined();
      m.tasks.set(task.id, { title, done: false, personalOf: u, hiveId: "", live: true });
      await expectPeerSees(w, u, "task", task, true);
      return;
    }
    case "setTaskDone": {
      const task = pick(
        m.tasks,
        n,
        (t) => t.live && (t.personalOf === undefined || t.personalOf === u),
      );
      if (!task) return;
      const body = { id: task[0], done: flag };
      const got = (await ok(w, u, "TaskService/SetTaskDone", body)).task;
      task[1].done = flag;
      await expectPeerSees(w, u, "task", got, task[1].personalOf !== undefined);
      return;
    }
    case "createTreatment": {
      const h = liveHive();
      if (!h) return;
      const body = { hiveId: h[0], product: name(w, u, "product") };
      const treatment = (await ok(w, u, "TreatmentService/CreateTreatment", body)).treatment;
      m.treatments.set(treatment.id, { product: body.product });
      await expectPeerSees(w, u, "treatment", treatment);
      return;
    }
    case "createHarvest": {
      const h = liveHive();
      if (!h) return;
      const body = { hiveId: h[0], amountKg: 1 + (n2 % 40), note: name(w, u, "harvest") };
      const harvest = (await ok(w, u, "HarvestService/CreateHarvest", body)).harvest;
      m.harvests.set(harvest.id, { amountKg: body.amountKg, live: true });
      await expectPeerSees(w, u, "harvest", harvest);
      return;
    }
    case "deleteHarvest": {
      const h = pick(m.harvests, n, (h) => h.live);
      if (!h) return;
      await ok(w, u, "HarvestService/DeleteHarvest", { id: h[0] });
      h[1].live = false;
      const peer = peerOf(u);
      if (peer) await notFound(w, peer, "HarvestService/GetHarvest", { id: h[0] });
      return;
    }
  }
}

const kinds: readonly Kind[] = [
  "apiary",
  "hive",
  "inspection",
  "queen",
  "task",
  "treatment",
  "harvest",
];

async function runCross(w: World, op: Extract<Op, { t: "cross" }>): Promise<void> {
  const { actor: u, pick: n, pick2: n2 } = op;
  const victim = otherTenant(tenantOf(u));
  const v = w.tenants[victim];
  const own = tenantModel(w, u);
  // Their rows, leaving out ids the actor's tenant reused for rows of its own (pushShadow).
  const mine = tenantIds(w, tenantOf(u));
  const theirs = <V>(map: Map<string, V>, k = n) => pick(map, k, (_, id) => !mine.has(id));
  const theirApiary = () => theirs(v.apiaries);
  const theirHive = () => theirs(v.hives);
  // The rows the probe targets, read back by their owner afterwards.
  const unchanged = async (kind: Kind, id: string) => expectAsModeled(w, victim, kind, id);
  switch (op.probe) {
    case "get": {
      const kind = kinds[n2 % kinds.length] ?? "apiary";
      const rows: Record<Kind, Map<string, unknown>> = {
        apiary: v.apiaries,
        hive: v.hives,
        inspection: v.inspections,
        queen: v.queens,
        task: v.tasks,
        treatment: v.treatments,
        harvest: v.harvests,
      };
      const row = theirs(rows[kind]);
      if (row) await notFound(w, u, getPath[kind], { id: row[0] });
      const event = theirs(new Map([...v.events].map((id) => [id, id])));
      if (event) await notFound(w, u, "EventService/GetEvent", { id: event[0] });
      return;
    }
    case "updateApiary": {
      const a = theirApiary();
      if (!a) return;
      await notFound(w, u, "ApiaryService/UpdateApiary", { id: a[0], name: name(w, u, "taken") });
      await unchanged("apiary", a[0]);
      return;
    }
    case "deleteApiary": {
      const a = theirApiary();
      if (!a) return;
      await notFound(w, u, "ApiaryService/DeleteApiary", { id: a[0] });
      await unchanged("apiary", a[0]);
      return;
    }
    case "updateHive": {
      const h = theirHive();
      if (!h) return;
      const body = {
        hive: { id: h[0], name: name(w, u, "taken"), status: "HIVE_STATUS_DISSOLVED" },
      };
      await notFound(w, u, "HiveService/UpdateHive", body);
      await unchanged("hive", h[0]);
      return;
    }
    case "deleteHive": {
      const h = theirHive();
      if (!h) return;
      await notFound(w, u, "HiveService/DeleteHive", { id: h[0] });
      await unchanged("hive", h[0]);
      return;
    }
    case "relocateTheirHive": {
      const h = theirHive();
      const target = pick(own.apiaries, n2, (a) => a.live);
      if (!h || !target) return;
      await notFound(w, u, "HiveService/RelocateHive", { id: h[0], targetApiaryId: target[0] });
      await unchanged("hive", h[0]);
      return;
    }
    case "relocateToTheirApiary": {
      const h = pick(own.hives, n2, (h) => h.live);
      const a = theirApiary();
      if (!h || !a) return;
      await notFound(w, u, "HiveService/RelocateHive", { id: h[0], targetApiaryId: a[0] });
      await expectAsModeled(w, tenantOf(u), "hive", h[0]);
      await unchanged("apiary", a[0]);
      return;
    }
    case "createHive": {
      const a = theirApiary();
      if (!a) return;
      await notFound(w, u, "HiveService/CreateHive", { apiaryId: a[0], name: name(w, u, "in") });
      await unchanged("apiary", a[0]);
      return;
    }
    case "createInspection":
    case "createQueen":
    case "createTaskOnHive":
    case "createTreatment":
    case "createHarvest": {
      const h = theirHive();
      if (!h) return;
      const hiveId = h[0];
      const note = name(w, u, "intruder");
      const [path, body] = {
        createInspection: ["InspectionService/CreateInspection", { hiveId, note }],
        createQueen: ["QueenService/CreateQueen", { hiveId, year: 2026, note }],
        createTaskOnHive: ["TaskService/CreateTask", { hiveId, title: note }],
        createTreatment: ["TreatmentService/CreateTreatment", { hiveId, product: note }],
        createHarvest: ["HarvestService/CreateHarvest", { hiveId, amountKg: 3, note }],
      }[op.probe] as [string, unknown];
      await notFound(w, u, path, body);
      await unchanged("hive", h[0]);
      return;
    }
    case "createTaskInApiary": {
      const a = theirApiary();
      if (!a) return;
      const body = { apiaryId: a[0], title: name(w, u, "intruder") };
      await refused(w, u, "TaskService/CreateTask", body, 400, "invalid_argument");
      return;
    }
    case "addPhoto": {
      const i = theirs(v.inspections);
      if (!i) return;
      const body = { inspectionId: i[0], photo: photo(w) };
      await notFound(w, u, "InspectionService/AddInspectionPhoto", body);
      await unchanged("inspection", i[0]);
      return;
    }
    case "removePhoto": {
      const i = theirs(v.inspections);
      if (!i) return;
      const body = { inspectionId: i[0], photo: i[1].photos[n2 % i[1].photos.length] ?? photo(w) };
      await notFound(w, u, "InspectionService/RemoveInspectionPhoto", body);
      await unchanged("inspection", i[0]);
      return;
    }
    case "updateQueen": {
      const q = theirs(v.queens);
      if (!q) return;
      const body = { queen: { id: q[0], hiveId: q[1].hiveId, year: 2019, note: name(w, u, "q") } };
      await notFound(w, u, "QueenService/UpdateQueen", body);
      await unchanged("queen", q[0]);
      return;
    }
    case "setTaskDone": {
      const task = theirs(v.tasks);
      if (!task) return;
      await notFound(w, u, "TaskService/SetTaskDone", { id: task[0], done: !task[1].done });
      await unchanged("task", task[0]);
      return;
    }
    case "deleteHarvest": {
      const h = theirs(v.harvests);
      if (!h) return;
      await notFound(w, u, "HarvestService/DeleteHarvest", { id: h[0] });
      await unchanged("harvest", h[0]);
      return;
    }
    case "pushIntoTheirScope": {
      const a = theirApiary();
      if (!a) return;
      const payload = { apiary_id: a[0], name: name(w, u, "pushed in"), status: 1 };
      await pushDenied(w, u, upsert("hive", randomUUID(), a[0], w.device.stamp(), payload));
      await unchanged("apiary", a[0]);
      return;
    }
    case "pushOntoTheirRow": {
      // In their apiary's scope (a scope id the actor's tenant reused is its own apiary).
      const h = pick(v.hives, n, (h, id) => !mine.has(id) && !mine.has(h.apiaryId));
      if (!h) return;
      const change = upsert("hive", h[0], h[1].apiaryId, w.device.stamp(), {
        name: name(w, u, "taken"),
      });
      await pushDenied(w, u, change);
      await unchanged("hive", h[0]);
      return;
    }
    case "pushShadow": {
      // Ids are the tenant's own: a device that reuses another tenant's apiary or hive id
      // (only possible had it learned it) creates a row of its own tenant, exactly as with a
      // fresh id, and leaves theirs alone. (A refusal would tell that the id exists elsewhere.)
      const onHive = n2 % 2 === 1;
      const target = onHive ? theirHive() : theirApiary();
      const at = onHive ? pick(own.apiaries, n2, (a) => a.live) : undefined;
      if (!target || (onHive && !at)) return;
      const id = target[0];
      const shadowName = name(w, u, "shadow");
      const change =
        onHive && at
          ? upsert("hive", id, at[0], w.device.stamp(), {
              apiary_id: at[0],
              name: shadowName,
              status: 1,
            })
          : upsert("apiary", id, id, w.device.stamp(), { name: shadowName });
      const r = await push(w, u, change);
      expect(r.status, `${u} pushed ${JSON.stringify(change)} → ${JSON.stringify(r.body)}`).toBe(
        200,
      );
      if (onHive && at) own.hives.set(id, { name: shadowName, apiaryId: at[0], live: true });
      else own.apiaries.set(id, { name: shadowName, live: true });
      await expectAsModeled(w, tenantOf(u), onHive ? "hive" : "apiary", id);
      await unchanged(onHive ? "hive" : "apiary", id);
      return;
    }
    case "listFiltered": {
      const a = theirApiary();
      const h = theirHive();
      const q = theirs(v.queens);
      const lists: [string, string, Record<string, string> | undefined][] = [
        ["HiveService/ListHives", "hives", a && { apiaryId: a[0] }],
        ["InspectionService/ListInspections", "inspections", h && { hiveId: h[0] }],
        ["QueenService/ListQueens", "queens", h && { hiveId: h[0] }],
        ["TaskService/ListTasks", "tasks", h && { hiveId: h[0] }],
        ["TreatmentService/ListTreatments", "treatments", h && { hiveId: h[0] }],
        ["HarvestService/ListHarvests", "harvests", h && { hiveId: h[0] }],
        ["HarvestService/ListHarvests", "harvests", a && { apiaryId: a[0] }],
        ["EventService/ListEvents", "events", h && { hiveId: h[0] }],
        ["EventService/ListEvents", "events", a && { apiaryId: a[0] }],
        ["EventService/ListEvents", "events", q && { queenId: q[0] }],
      ];
      const chosen = lists[n2 % lists.length];
      if (!chosen?.[2]) return;
      const [path, key, filter] = chosen;
      const body = await ok(w, u, path, filter);
      expect(body[key] ?? [], `${u} ${path} ${JSON.stringify(filter)}`).toEqual([]);
      return;
    }
  }
}

async function runPrivate(w: World, op: Extract<Op, { t: "private" }>): Promise<void> {
  const u = op.actor;
  const peer = peerOf(u) as UserKey;
  const m = tenantModel(w, u);
  const task = pick(m.tasks, op.pick, (t) => t.live && t.personalOf === peer);
  const unchanged = async (id: string) => expectAsModeled(w, "A", "task", id);
  switch (op.probe) {
    case "get":
      if (!task) return;
      await notFound(w, u, "TaskService/GetTask", { id: task[0] });
      return;
    case "setTaskDone":
      if (!task) return;
      await notFound(w, u, "TaskService/SetTaskDone", { id: task[0], done: !task[1].done });
      await unchanged(task[0]);
      return;
    case "pushIntoTheirScope": {
      const scope = `user:${w.accounts[peer].userId}`;
      const title = `${w.privateMarker[u]} slipped in ${++w.serial}`;
      await pushDenied(w, u, upsert("task", randomUUID(), scope, w.device.stamp(), { title }));
      return;
    }
    case "pushOntoTheirTask": {
      if (!task) return;
      const scope = `user:${w.accounts[u].userId}`;
      await pushDenied(
        w,
        u,
        upsert("task", task[0], scope, w.device.stamp(), { done: !task[1].done }),
      );
      await unchanged(task[0]);
      return;
    }
  }
}

// ---- reads -----------------------------------------------------------------------------------

const lists: Record<Exclude<View, "dashboard" | "pull">, [string, string]> = {
  apiaries: ["ApiaryService/ListApiaries", "apiaries"],
  hives: ["HiveService/ListHives", "hives"],
  inspections: ["InspectionService/ListInspections", "inspections"],
  queens: ["QueenService/ListQueens", "queens"],
  tasks: ["TaskService/ListTasks", "tasks"],
  treatments: ["TreatmentService/ListTreatments", "treatments"],
  harvests: ["HarvestService/ListHarvests", "harvests"],
  events: ["EventService/ListEvents", "events"],
};

/** The ids the list view should hold for the user, when the model knows them exactly. */
function expectedIds(w: World, u: UserKey, view: keyof typeof lists): string[] | undefined {
  const m = tenantModel(w, u);
  const live = <V extends { live: boolean }>(map: Map<string, V>) =>
    [...map].filter(([, v]) => v.live).map(([id]) => id);
  switch (view) {
    case "apiaries":
      return live(m.apiaries);
    case "hives":
      return live(m.hives);
    case "harvests":
      return live(m.harvests);
    case "tasks":
      return [...m.tasks]
        .filter(([, t]) => t.live && (t.personalOf === undefined || t.personalOf === u))
        .map(([id]) => id);
    case "inspections":
      return [...m.inspections.keys()];
    case "queens":
      return [...m.queens.keys()];
    case "treatments":
      return [...m.treatments.keys()];
    case "events":
      return undefined;
  }
}

const sorted = (ids: Iterable<string>): string[] => [...ids].sort();

/** What a read shows, for comparing the two users of organization A. */
type Seen = { ids: string[] } | { dashboard: Record<string, unknown> } | { pulled: number };

async function read(w: World, u: UserKey, view: View): Promise<Seen> {
  const t = tenantModel(w, u);
  if (view === "dashboard") {
    const d = await ok(w, u, "StatsService/GetDashboard", {});
    const liveCount = <V extends { live: boolean }>(map: Map<string, V>) =>
      [...map.values()].filter((v) => v.live).length;
    expect([d.apiaries ?? 0, d.hives ?? 0], `${u} dashboard ${JSON.stringify(d)}`).toEqual([
      liveCount(t.apiaries),
      liveCount(t.hives),
    ]);
    const visible = new Set(expectedIds(w, u, "tasks"));
    for (const next of d.nextTasks ?? []) expect(visible.has(next.id), next.id).toBe(true);
    return { dashboard: d };
  }
  if (view === "pull") {
    const feed = w.feeds[u];
    const own = `user:${w.accounts[u].userId}`;
    let pulled = 0;
    for (;;) {
      const body = await ok(w, u, "SyncService/Pull", { cursor: feed.cursor, limit: 200 });
      for (const c of body.changes ?? []) {
        const where = `${u} pulled ${JSON.stringify(c)}`;
        expect(c.scopeId === own || t.apiaries.has(c.scopeId), where).toBe(true);
        if (c.scopeId === own) feed.personal.add(c.entityId);
        else feed.shared.push(`${c.entity}/${c.entityId}/${c.op ?? ""}/${c.hlc}`);
        pulled++;
      }
      feed.cursor = body.nextCursor;
      if (!body.hasMore) return { pulled };
    }
  }
  const [path, key] = lists[view];
  const request = view === "events" ? { limit: 1000 } : { page: { pageSize: 500 } };
  const body = await ok(w, u, path, request);
  if (view !== "events") expect(body.page?.nextPageToken, `${u} ${path}`).toBeUndefined();
  // biome-ignore lint/suspicious/noExplicitAny: JSON rows.
  const ids: string[] = (body[key] ?? []).map((row: any) => row.id);
  // Every row is the reader's tenant's.
  for (const row of body[key] ?? []) {
    expect(row.organizationId, `${u} ${path} ${JSON.stringify(row)}`).toBe(t.organizationId);
  }
  if (view === "events") {
    // Learn the tenant's event ids (after the leak check above, so a leaked one is caught).
    const other = tenantIds(w, otherTenant(tenantOf(u)));
    for (const id of ids) if (!other.has(id)) t.events.add(id);
  }
  const expected = expectedIds(w, u, view);
  if (expected) expect(sorted(ids), `${u} ${path}`).toEqual(sorted(expected));
  return { ids };
}

/** Every read for every user; then organization A's two users must agree on shared data. */
async function sweep(w: World): Promise<void> {
  const seen = {} as Record<UserKey, Partial<Record<View, Seen>>>;
  for (const u of userKeys) {
    seen[u] = {};
    for (const view of views) seen[u][view] = await read(w, u, view);
  }
  const a1 = seen.A1;
  const a2 = seen.A2;
  const personal = new Set(
    [...w.tenants.A.tasks].filter(([, t]) => t.personalOf !== undefined).map(([id]) => id),
  );
  for (const view of Object.keys(lists) as (keyof typeof lists)[]) {
    const ids = (s: Seen | undefined) =>
      sorted(((s as { ids: string[] }).ids ?? []).filter((id) => !personal.has(id)));
    expect(ids(a1[view]), `A1 and A2 list the same ${view}`).toEqual(ids(a2[view]));
  }
  const shared = (s: Seen | undefined) => {
    const {
      openTasks: _o,
      overdueTasks: _d,
      nextTasks: _n,
      ...rest
    } = (s as { dashboard: Record<string, unknown> }).dashboard;
    return rest;
  };
  expect(shared(a1.dashboard), "A1 and A2 see the same dashboard").toEqual(shared(a2.dashboard));
  expect(w.feeds.A1.shared, "A1 and A2 pull the same shared changes").toEqual(w.feeds.A2.shared);
  for (const u of userKeys) {
    const mine = [...tenantModel(w, u).tasks]
      .filter(([, t]) => t.personalOf === u)
      .map(([id]) => id);
    expect(sorted(w.feeds[u].personal), `${u} pulls its personal tasks`).toEqual(
      sorted(new Set(mine)),
    );
  }
}

async function run(w: World, op: Op): Promise<void> {
  switch (op.t) {
    case "own":
      return runOwn(w, op);
    case "cross":
      return runCross(w, op);
    case "private":
      return runPrivate(w, op);
    case "read":
      await read(w, op.actor, op.view);
      return;
  }
}

/**
 * Every run starts with one row of each kind in each tenant and a personal task of each
 * user, so probes have targets; the owners list their events so event ids are known.
 */
const preamble: Op[] = [
  ...(["A1", "B1"] as const).flatMap((actor) =>
    (
      [
        "createApiary",
        "createHive",
        "createInspection",
        "addPhoto",
        "createQueen",
        "createTask",
        "createTreatment",
        "createHarvest",
        "createPersonalTask",
      ] as const
    ).map((op): Op => ({ t: "own", actor, op, pick: 0, pick2: 0, flag: false })),
  ),
  { t: "own", actor: "A2", op: "createPersonalTask", pick: 0, pick2: 0, flag: false },
  { t: "read", actor: "A1", view: "events" },
  { t: "read", actor: "B1", view: "events" },
];

describe.each(databaseKinds)("tenant isolation as a property on %s", (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, loginEnv, { throttle: relaxedThrottle });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("two tenants never see or change each other's data; one tenant's users share all but personal tasks", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: minOps, maxLength: maxOps }), async (ops) => {
        const w = await newWorld(server);
        for (const op of [...preamble, ...ops]) await run(w, op);
        await sweep(w);
      }),
      // A run takes about 1.5 s: shrinking a failure through hundreds of runs outlasts the
      // test's limit and hides the counterexample behind a timeout (seen once in CI). Stop at
      // the first failure and report its sequence and seed as found.
      // HIVEKEEP_PROPERTY_SEED (and _PATH) replay a run fast-check printed.
      {
        numRuns,
        endOnFailure: true,
        ...(process.env.HIVEKEEP_PROPERTY_SEED
          ? {
              seed: Number(process.env.HIVEKEEP_PROPERTY_SEED),
              path: process.env.HIVEKEEP_PROPERTY_PATH,
            }
          : {}),
      },
    );
  }, 300_000);
});
