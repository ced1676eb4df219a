/**
 * What the device-engine proofs share: device clients (createHivekeepClient on a fresh
 * fake-indexeddb each) behind a network the test controls, and the two comparisons every proof
 * ends with:
 *
 * - `replicaRows`: each entity table of a replica as rows {id, scopeId, values, clock, deleted},
 *   so replicas are compared row by row (values and merge state alike);
 * - `rpcView`: what the record services answer (List* with and without filters, per apiary and
 *   per hive, Get* of listed rows, the statistics), called the same way on the server over HTTP
 *   and on a device's local services, so "equal to the server's view" is one `toEqual`.
 */

import { createHash } from "node:crypto";
import { Code, ConnectError } from "@connectrpc/connect";
import { createHivekeepClient, type HivekeepClient } from "@hivekeep/client-core";
import {
  type Change,
  entities,
  entityNames,
  type Hlc,
  photoPrefix,
  photoRef,
} from "@hivekeep/client-core/core";
import { type RecordClients, recordClients } from "@hivekeep/client-core/ops";
import { SyncService } from "@hivekeep/proto";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { expect } from "vitest";
import type { TestServer } from "../support/server.ts";

/** The base URL every test device is configured with; the network routes it to a server. */
export const deviceBaseUrl = "http://hivekeep.device.test";

/**
 * The network between test devices and a server: `target` is where requests go now (a server
 * may be replaced or restarted on another port), `offline` refuses every request like a phone
 * without signal, and `intercept` may stand in for one request (e.g. lose a response).
 */
export class Network {
  target: string;
  offline = false;
  /** Push requests that reached the server. */
  pushes = 0;
  intercept:
    | ((
        url: string,
        init: RequestInit | undefined,
        forward: () => Promise<Response>,
      ) => Promise<Response>)
    | undefined;

  constructor(target: string) {
    this.target = target;
  }

  readonly fetch: typeof globalThis.fetch = async (input, init) => {
    const raw = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (this.offline) throw new TypeError("fetch failed: the device is offline");
    const url = raw.replace(deviceBaseUrl, this.target);
    const forward = async () => {
      const response = await globalThis.fetch(url, init);
      if (url.endsWith(".SyncService/Push")) this.pushes += 1;
      return response;
    };
    const intercept = this.intercept;
    return intercept ? intercept(url, init, forward) : forward();
  };
}

let devices = 0;

export interface DeviceOptions {
  readonly net: Network;
  readonly getToken?: () => Promise<string | undefined>;
  readonly now?: () => number;
  readonly random?: () => number;
  readonly pushBatch?: number;
  readonly pullLimit?: number;
  readonly debounceMs?: number;
  readonly intervalMs?: number;
  readonly readingDays?: number;
}

/** A new device: its own IndexedDB and replica name (so Web Locks never tie two together). */
export async function openDevice(options: DeviceOptions): Promise<HivekeepClient> {
  devices += 1;
  const { net, ...rest } = options;
  return createHivekeepClient({
    baseUrl: deviceBaseUrl,
    dbName: `device-${process.pid}-${devices}`,
    indexedDB: new IDBFactory(),
    IDBKeyRange,
    fetch: net.fetch,
    ...rest,
  });
}

export interface ReplicaRow {
  readonly id: string;
  readonly scopeId: string;
  readonly values: Record<string, unknown>;
  readonly clock: Record<string, string>;
  readonly deleted: boolean;
}

/** Every entity table of a replica, rows sorted by id, as its merge state. */
export async function replicaRows(client: HivekeepClient): Promise<Record<string, ReplicaRow[]>> {
  const out: Record<string, ReplicaRow[]> = {};
  for (const name of entityNames) {
    const rows = await client.db.table(entities[name].table).toArray();
    out[name] = rows
      .map((r) => ({
        id: r.id,
        scopeId: r.scopeId,
        values: r.values,
        clock: r.clock,
        deleted: r.deleted,
      }))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
  return out;
}

/** Rows that still keep a confirmed `base` (a change to them is pending), as `entity/id`. */
export async function rowsWithBase(client: HivekeepClient): Promise<string[]> {
  const keys: string[] = [];
  for (const name of entityNames) {
    const rows = await client.db.table(entities[name].table).toArray();
    for (const r of rows) if (r.base !== undefined) keys.push(`${name}/${r.id}`);
  }
  return keys;
}

/** The record services, on the server (HTTP) or on a device (its local replica). */
export type Services = RecordClients;

export const serverServices = (t: TestServer): Services => recordClients((s) => t.client(s));

const page = { pageSize: 500 };

/** A Get of a listed row, or the code of its failure (it must not fail). */
async function got<T>(call: () => Promise<T>): Promise<T | string> {
  try {
    return await call();
  } catch (err) {
    return `error ${Code[ConnectError.from(err).code]}`;
  }
}

/**
 * What the services answer about the whole tenant. `probe` ids are fetched with Get* too
 * (deleted rows: both sides must answer not_found alike).
 */
export async function rpcView(s: Services, probe: Record<string, readonly string[]> = {}) {
  const apiaries = (await s.apiaries.listApiaries({ page })).apiaries;
  const hives = (await s.hives.listHives({ page })).hives;
  const inspections = (await s.inspections.listInspections({ page })).inspections;
  const queens = (await s.queens.listQueens({ page })).queens;
  const tasks = (await s.tasks.listTasks({ page })).tasks;
  const treatments = (await s.treatments.listTreatments({ page })).treatments;
  const harvests = (await s.harvests.listHarvests({ page })).harvests;
  const events = (await s.events.listEvents({ limit: 1000 })).events;
  // Lists carry whole messages; Get* is checked for the first rows of each and every probe.
  const ids = (list: readonly { id: string }[], more: readonly string[] = []) => [
    ...new Set([...list.slice(0, 25).map((r) => r.id), ...more]),
  ];
  const perApiary = [];
  for (const id of ids(apiaries, probe.apiary)) {
    perApiary.push({
      id,
      get: await got(() => s.apiaries.getApiary({ id })),
      hives: await got(() => s.hives.listHives({ apiaryId: id, page })),
      harvests: await got(() => s.harvests.listHarvests({ apiaryId: id, page })),
      events: await got(() => s.events.listEvents({ apiaryId: id, limit: 1000 })),
    });
  }
  const perHive = [];
  for (const id of ids(hives, probe.hive)) {
    perHive.push({
      id,
      get: await got(() => s.hives.getHive({ id })),
      inspections: await got(() => s.inspections.listInspections({ hiveId: id, page })),
      queens: await got(() => s.queens.listQueens({ hiveId: id, page })),
      activeQueens: await got(() => s.queens.listQueens({ hiveId: id, onlyActive: true, page })),
      tasks: await got(() => s.tasks.listTasks({ hiveId: id, page })),
      treatments: await got(() => s.treatments.listTreatments({ hiveId: id, page })),
      events: await got(() => s.events.listEvents({ hiveId: id, limit: 1000 })),
    });
  }
  const gets = {
    inspections: await Promise.all(
      ids(inspections, probe.inspection).map((id) =>
        got(() => s.inspections.getInspection({ id })),
      ),
    ),
    queens: await Promise.all(
      ids(queens, probe.queen).map((id) => got(() => s.queens.getQueen({ id }))),
    ),
    tasks: await Promise.all(
      ids(tasks, probe.task).map((id) => got(() => s.tasks.getTask({ id }))),
    ),
    treatments: await Promise.all(
      ids(treatments).map((id) => got(() => s.treatments.getTreatment({ id }))),
    ),
    harvests: await Promise.all(
      ids(harvests, probe.harvest).map((id) => got(() => s.harvests.getHarvest({ id }))),
    ),
    events: await Promise.all(ids(events).map((id) => got(() => s.events.getEvent({ id })))),
  };
  return {
    apiaries,
    hives,
    inspections,
    queens,
    tasks,
    treatments,
    harvests,
    events,
    perApiary,
    perHive,
    gets,
    dashboard: await s.stats.getDashboard({}),
    honey: await s.stats.getHoneyStats({}),
  };
}

/** Syncs every device until each has pushed everything and pulled what the others pushed. */
export async function settle(clients: readonly HivekeepClient[]): Promise<void> {
  for (let round = 0; round < 2; round++) {
    for (const c of clients) await c.sync.syncNow();
  }
}

/**
 * Every device holds the same rows as every other (values, stamps, tombstones, scopes), has
 * nothing pending, and its local services answer exactly what the server's answer.
 */
export async function expectConverged(
  t: TestServer,
  clients: readonly HivekeepClient[],
  probe: Record<string, readonly string[]> = {},
): Promise<void> {
  const [first, ...others] = clients;
  if (first === undefined) return;
  for (const c of clients) {
    expect(await c.db.outbox.count(), "outbox empty").toBe(0);
    expect(await rowsWithBase(c), "no row waits for a confirmation").toEqual([]);
  }
  const rows = byPhotoRef(await replicaRows(first));
  for (const c of others) expect(byPhotoRef(await replicaRows(c))).toEqual(rows);
  const server = byPhotoRef(await rpcView(serverServices(t), probe));
  for (const c of clients) expect(byPhotoRef(await rpcView(c, probe))).toEqual(server);
}

const photoHash = (text: string) => createHash("sha256").update(text, "utf8").digest("base64url");

/**
 * A view with every photo as its reference (core/photo-ref.ts): a device holds the photos it
 * added in full and those it pulled by reference, the server holds them in full, and a photo and
 * its reference are the same photo. Lists of photos and OR-set entries are sorted again, since
 * their order follows the values (photos added by one change are ordered by value).
 */
export function byPhotoRef<T>(view: T): T {
  const walk = (v: unknown, key: string | undefined): unknown => {
    if (typeof v === "string") return v.startsWith(photoPrefix) ? photoRef(v, photoHash) : v;
    if (Array.isArray(v)) {
      const out = v.map((x) => walk(x, undefined));
      if (key === "photoKeys") return (out as string[]).sort();
      if (key === "adds") {
        return (out as { tag: string; value: string }[]).sort((a, b) =>
          a.tag === b.tag ? (a.value < b.value ? -1 : 1) : a.tag < b.tag ? -1 : 1,
        );
      }
      return out;
    }
    if (v === null || typeof v !== "object" || v instanceof Uint8Array) return v;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
  };
  return walk(view, undefined) as T;
}

/** Every change of the feed (from the start), as Pull gives it to this server view. */
export async function feed(t: Pick<TestServer, "client">) {
  const sync = t.client(SyncService);
  const changes = [];
  let cursor = "";
  for (;;) {
    const r = await sync.pull({ cursor, limit: 5000 });
    changes.push(...r.changes);
    cursor = r.nextCursor;
    if (!r.hasMore) return changes;
  }
}

/** How many feed rows each change (entity/id@hlc) has; a change pushed twice would count 2. */
export async function feedCounts(t: Pick<TestServer, "client">): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const c of await feed(t)) {
    const key = `${c.entity}/${c.entityId}@${c.hlc}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

export const changeKey = (c: Pick<Change, "entity" | "entityId" | "hlc">): string =>
  `${c.entity}/${c.entityId}@${c.hlc}`;

/** Every stamp a replica keeps: row clocks, OR-set tags, outbox and quarantine. */
export async function stampsIn(client: HivekeepClient): Promise<Hlc[]> {
  const stamps: Hlc[] = [];
  for (const name of entityNames) {
    const rows = await client.db.table(entities[name].table).toArray();
    for (const r of rows) {
      for (const state of [r, r.base ?? undefined]) {
        if (!state) continue;
        stamps.push(...(Object.values(state.clock) as Hlc[]));
        for (const v of Object.values(state.values)) {
          const set = v as { adds?: { tag: string }[]; removed?: string[] } | null;
          if (set && typeof set === "object" && Array.isArray(set.adds)) {
            stamps.push(...set.adds.map((a) => a.tag as Hlc), ...((set.removed ?? []) as Hlc[]));
          }
        }
      }
    }
  }
  for (const e of await client.db.outbox.toArray()) stamps.push(e.change.hlc);
  for (const e of await client.db.quarantine.toArray()) stamps.push(e.change.hlc);
  return stamps;
}

/** A message read back (it must exist) with some fields changed: for Update* requests. */
export function edited<T extends object>(message: T | undefined, patch: Partial<T>): T {
  if (message === undefined) throw new Error("expected a message to edit");
  return { ...message, ...patch };
}

/** Polls `check` until it passes (no timing assertion: only a generous ceiling). */
export { eventually } from "../support/main-process.ts";
