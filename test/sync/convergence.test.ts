/**
 * Convergence over the real server (DESIGN.md §4), as a fast-check property: three devices
 * (the pure device model of client-core/src/testing/replica-model.ts, whose own property tests
 * run many more scenarios without a server) whose wall clocks are off by up to ±24 h make
 * random edits, photo adds and removals and deletes on the rows of one apiary they first
 * create through Push. They push random batches in random order — some held back and pushed
 * later, some whose response is lost (pushed again at once or later) — and pull pages of random
 * size, some applied without the cursor being saved (pulled again). The server's own photo
 * operations write too. Changes the server refuses for clock skew (the PushRejection detail
 * names them) are re-stamped after measuring the server time with a Pull.
 *
 * Once everything is delivered, every device holds exactly the server's stored rows (read
 * from the tables, normalised by the server's own rowStateFromDb), GetHive / GetInspection
 * agree (not_found when deleted), deleted rows stay deleted, every accepted write survives
 * unless a strictly greater HLC overwrote it, and pushing everything again adds no feed row.
 */
import { randomUUID } from "node:crypto";
import { type Timestamp, timestampDate, timestampMs } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  type Change,
  type ColumnSpec,
  camelCase,
  type EntityName,
  entities,
  type Hlc,
  isComplete,
  isStorableText,
  isTooFarAhead,
  maxInt32,
  maxPushChanges,
  minInt32,
  type OrSetState,
  orSetValues,
  type RowState,
  type Values,
} from "@hivekeep/client-core/core";
import {
  ChangeOp,
  HiveService,
  InspectionService,
  type Change as ProtoChange,
  PushRejectionSchema,
  SyncService,
} from "@hivekeep/proto";
import { localOrganizationId, localUserId } from "@hivekeep/server";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowKey, toWire } from "../../client-core/src/core/change.ts";
import {
  type Intent,
  lostParts,
  ModelDevice,
} from "../../client-core/src/testing/replica-model.ts";
import { rowStateFromDb } from "../../server/src/store/row-state.ts";
import { databaseKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const day = 86_400_000;
const numRuns = 25;
const photos = [
  "data:image/png;base64,AAAA",
  "data:image/png;base64,BBBB",
  "data:image/jpeg;base64,CCCC",
];

// ---- arbitraries ------------------------------------------------------------------------

const deviceArb = (minSkewMs: number) =>
  fc.record({
    skewMs: fc.oneof(
      fc.constantFrom(minSkewMs, 0, 61_000, day).filter((s) => s >= minSkewMs),
      fc.integer({ min: minSkewMs, max: day }),
    ),
    errorMs: fc.integer({ min: -5_000, max: 5_000 }),
  });

const text = fc.string({ unit: "grapheme", maxLength: 12 }).filter(isStorableText);
/** One candidate value per column type; the column picks the one of its type. */
const valuesArb = fc.record({
  text,
  name: text.filter((s) => s.trim() !== ""),
  int: fc.integer({ min: minInt32, max: maxInt32 }),
  float: fc.double({ noNaN: true, noDefaultInfinity: true }),
  bool: fc.boolean(),
  enumPick: fc.nat(),
  date: fc.date({
    min: new Date("0001-01-01T00:00:00.000Z"),
    max: new Date("9999-12-31T23:59:59.999Z"),
    noInvalidDate: true,
  }),
});
type Candidates = typeof valuesArb extends fc.Arbitrary<infer T> ? T : never;

const editable: Readonly<Partial<Record<EntityName, readonly string[]>>> = {
  hive: ["name", "note", "boxes", "status", "type", "colony_origin"],
  inspection: [
    "note",
    "frames",
    "queen_seen",
    "weight_kg",
    "temp_hive",
    "date",
    "stores",
    "varroa",
  ],
};

type RawIntent =
  | { kind: "set"; row: number; columns: number[]; values: Candidates }
  | { kind: "photoAdd"; row: number; photo: number }
  | { kind: "photoRemove"; row: number; pick: number }
  | { kind: "delete"; row: number };

const rowArb = fc.nat(3);
const intentArb: fc.Arbitrary<RawIntent> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("set" as const),
      row: rowArb,
      columns: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
      values: valuesArb,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("photoAdd" as const),
      row: rowArb,
      photo: fc.nat(photos.length - 1),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("photoRemove" as const),
      row: rowArb,
      pick: fc.nat(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const), row: rowArb }) },
);

const device = fc.nat(2);
const rarely = fc.nat(3).map((n) => n === 0);
const sometimes = fc.nat(2).map((n) => n === 0);
type Action =
  | { type: "write"; device: number; intent: RawIntent }
  | {
      type: "push";
      device: number;
      picks: number[];
      lost: boolean;
      retryNow: boolean;
      hold: boolean;
    }
  | { type: "deliverHeld"; device: number; pick: number }
  | { type: "pull"; device: number; limit: number; crash: boolean }
  | { type: "restart"; device: number }
  | { type: "concurrentPush" }
  | { type: "rpcPhoto"; add: boolean; inspection: number; photo: number };

const actionArb: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({ type: fc.constant("write" as const), device, intent: intentArb }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      type: fc.constant("push" as const),
      device,
      picks: fc.array(fc.nat(), { minLength: 1, maxLength: 6 }),
      lost: sometimes,
      retryNow: fc.boolean(),
      hold: rarely,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ type: fc.constant("deliverHeld" as const), device, pick: fc.nat() }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      type: fc.constant("pull" as const),
      device,
      limit: fc.integer({ min: 0, max: 5 }),
      crash: rarely,
    }),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constant("restart" as const), device }) },
  { weight: 1, arbitrary: fc.constant({ type: "concurrentPush" as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant("rpcPhoto" as const),
      add: fc.boolean(),
      inspection: fc.nat(1),
      photo: fc.nat(photos.length - 1),
    }),
  },
);

const scenarioArb = fc.record({
  // The device that creates the rows runs ahead, so the setup is always refused once.
  devices: fc.tuple(deviceArb(61_000), deviceArb(-day), deviceArb(-day)),
  actions: fc.array(actionArb, { minLength: 10, maxLength: 50, size: "max" }),
});
type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

// ---- wire ---------------------------------------------------------------------------------

const toProto = (c: Change) => toWire(c);

const fromProto = (c: ProtoChange): Change => ({
  entity: c.entity as EntityName,
  entityId: c.entityId,
  scopeId: c.scopeId,
  op: c.op === ChangeOp.DELETE ? "delete" : "upsert",
  payload: c.payloadJson === "" ? {} : (JSON.parse(c.payloadJson) as Values),
  hlc: c.hlc as Hlc,
  authorId: c.authorId,
});

/** A response's serverTime (Pull and Push always carry one). */
function serverMs(serverTime: Timestamp | undefined): number {
  if (serverTime === undefined) throw new Error("the response carries no serverTime");
  return timestampMs(serverTime);
}

const sortedByKey = <T>(entries: Iterable<[string, T]>): Record<string, T> =>
  Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : +(a > b))));

// ---- the scenario ---------------------------------------------------------------------

interface Stats {
  /** Pushes refused for clock skew (and re-stamped). */
  skewRejections: number;
}

const rejectedForSkew = /ahead of the server clock/;

describe.each(databaseKinds)("convergence over the real server on %s", (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind);
  });
  afterAll(async () => {
    await t?.stop();
  });

  const feedSeq = async (): Promise<string> => {
    const [org] = await t.server.db.query<{ feed_seq: number }>(
      "select feed_seq from organizations where id = $1",
      [localOrganizationId],
    );
    return String(org?.feed_seq);
  };

  /** The stored state of rows, as the server's own merge reads it. */
  async function storedRows(keys: readonly string[]): Promise<Record<string, RowState>> {
    const rows: [string, RowState][] = [];
    for (const key of keys) {
      const [entity, id] = key.split("/") as [EntityName, string];
      const spec = entities[entity];
      const [row] = await t.server.db.query(
        `select * from ${spec.table} where organization_id = $1 and id = $2`,
        [localOrganizationId, id],
      );
      if (row) rows.push([key, rowStateFromDb(row, spec)]);
    }
    return sortedByKey(rows);
  }

  async function runScenario(scenario: Scenario, stats: Stats): Promise<void> {
    const sync = t.client(SyncService);
    const apiaryId = randomUUID();
    const hiveIds = [randomUUID(), randomUUID()];
    const inspectionIds = [randomUUID(), randomUUID()];
    const rows: { entity: EntityName; id: string }[] = [
      ...hiveIds.map((id) => ({ entity: "hive" as const, id })),
      ...inspectionIds.map((id) => ({ entity: "inspection" as const, id })),
    ];
    const keys = [rowKey("apiary", apiaryId), ...rows.map((r) => rowKey(r.entity, r.id))];
    const startCursor = await feedSeq();

    const devices = scenario.devices.map((spec, i) => ({
      model: new ModelDevice({ node: `dev-${i}`, authorId: localUserId, ...spec, now: Date.now }),
      cursor: startCursor,
      /** Entries after the cursor already applied (pulled, but the cursor was not saved). */
      replay: 0,
      held: [] as number[][],
      /** Every feed entry pulled, once each, in feed order. */
      log: [] as Change[],
      deleted: new Set<string>(),
    }));
    type Device = (typeof devices)[number];
    const accepted: Change[] = [];
    const problems: string[] = [];

    const pull = async (
      d: Device,
      limit: number,
      crash = false,
    ): Promise<{ serverTimeMs: number; hasMore: boolean }> => {
      const res = await sync.pull({ cursor: d.cursor, limit });
      const serverTimeMs = serverMs(res.serverTime);
      d.model.observeServerTime(serverTimeMs);
      const changes = res.changes.map(fromProto);
      d.model.applyPulled(changes).forEach((r, i) => {
        if (i < d.replay && r.changed)
          problems.push(`re-pulled ${changes[i]?.hlc} changed the replica`);
      });
      if (crash) {
        d.replay = Math.max(d.replay, changes.length);
      } else {
        d.replay = Math.max(0, d.replay - changes.length);
        d.cursor = res.nextCursor;
        d.log.push(...changes);
      }
      for (const key of keys) {
        const isDeleted = d.model.confirmed.rows.get(key)?.deleted === true;
        if (d.deleted.has(key) && !isDeleted) problems.push(`${key} came back on a device`);
        if (isDeleted) d.deleted.add(key);
      }
      return { serverTimeMs, hasMore: res.hasMore };
    };

    const pullToEnd = async (d: Device, limit: number) => {
      while ((await pull(d, limit)).hasMore);
    };

    /** One Push of the current version of these outbox entries. */
    const push = async (
      d: Device,
      ids: readonly number[],
      /** alone: no other push runs meanwhile, so the feed head can be compared. */
      opts: { lost?: boolean; retryNow?: boolean; alone?: boolean } = {},
    ): Promise<void> => {
      const batch = d.model.batch(ids);
      if (batch.length === 0) return;
      const send = () => sync.push({ changes: batch.map(toProto) });
      try {
        let res = await send();
        accepted.push(...batch);
        if (opts.lost) {
          if (!opts.retryNow) return;
          // The retry of a request whose response was lost writes nothing.
          const before = opts.alone ? await feedSeq() : undefined;
          res = await send();
          if (before !== undefined && (await feedSeq()) !== before) {
            problems.push("a retried push added feed rows");
          }
        }
        d.model.observeServerTime(serverMs(res.serverTime));
        d.model.acknowledge(ids);
      } catch (e) {
        const err = ConnectError.from(e);
        const rejections = err.findDetails(PushRejectionSchema).flatMap((r) => r.rejections);
        const other = rejections.filter((r) => !rejectedForSkew.test(r.reason));
        if (rejections.length === 0 || other.length > 0) throw err;
        stats.skewRejections++;
        if (opts.lost && !opts.retryNow) return;
        // A refused Push carries no serverTime: measure it with a Pull, then re-stamp.
        const { serverTimeMs } = await pull(d, 1);
        d.model.restamp(serverTimeMs);
        const ahead = d.model.outbox.filter((e) => isTooFarAhead(e.change.hlc, serverTimeMs));
        expect(ahead).toEqual([]);
      }
    };

    /** Pushes the whole outbox until it drains (re-stamping what is refused). */
    const pushAll = async (d: Device) => {
      for (let round = 0; round < 3 && d.model.outbox.length > 0; round++) {
        await push(
          d,
          d.model.outbox.map((e) => e.id),
          { alone: true },
        );
      }
      expect(d.model.outbox).toEqual([]);
    };

    const intentOf = (raw: RawIntent): Intent => {
      const { entity, id } = rows[raw.row] as (typeof rows)[number];
      switch (raw.kind) {
        case "delete":
          return { kind: "delete", entity, id, scopeId: apiaryId };
        case "photoAdd":
          if (entity === "inspection") {
            return { kind: "photoAdd", id, scopeId: apiaryId, photo: photos[raw.photo] as string };
          }
          return {
            kind: "set",
            entity,
            id,
            scopeId: apiaryId,
            values: { note: photos[raw.photo] },
          };
        case "photoRemove":
          if (entity === "inspection") {
            return { kind: "photoRemove", id, scopeId: apiaryId, pick: raw.pick };
          }
          return { kind: "set", entity, id, scopeId: apiaryId, values: { note: "" } };
        case "set": {
          const columns = editable[entity] ?? [];
          const values: Values = {};
          for (const c of raw.columns) {
            const column = columns[c % columns.length] as string;
            values[column] = valueFor(entity, column, raw.values);
          }
          return { kind: "set", entity, id, scopeId: apiaryId, values };
        }
      }
    };

    // Device 0 creates the apiary, two hives and an inspection of each, with a photo.
    const d0 = devices[0] as Device;
    d0.model.write({
      kind: "set",
      entity: "apiary",
      id: apiaryId,
      scopeId: apiaryId,
      values: { name: "Convergence" },
    });
    hiveIds.forEach((id, i) => {
      d0.model.write({
        kind: "set",
        entity: "hive",
        id,
        scopeId: apiaryId,
        values: { apiary_id: apiaryId, name: `Hive ${i + 1}`, status: 1 },
      });
    });
    inspectionIds.forEach((id, i) => {
      d0.model.write({
        kind: "set",
        entity: "inspection",
        id,
        scopeId: apiaryId,
        values: {
          hive_id: hiveIds[i],
          apiary_id: apiaryId,
          date: "2026-05-20T10:00:00.000Z",
          note: "first",
        },
      });
      d0.model.write({ kind: "photoAdd", id, scopeId: apiaryId, photo: photos[i] as string });
    });
    await pushAll(d0);

    for (const action of scenario.actions) {
      switch (action.type) {
        case "write":
          (devices[action.device] as Device).model.write(intentOf(action.intent));
          break;
        case "push": {
          const d = devices[action.device] as Device;
          const ids = d.model.pick(action.picks);
          if (action.hold) d.held.push(ids);
          else await push(d, ids, { ...action, alone: true });
          break;
        }
        case "deliverHeld": {
          const d = devices[action.device] as Device;
          if (d.held.length === 0) break;
          const [ids] = d.held.splice(action.pick % d.held.length, 1) as [number[]];
          await push(d, ids, { alone: true });
          break;
        }
        case "pull":
          await pull(devices[action.device] as Device, action.limit, action.crash);
          break;
        case "restart":
          (devices[action.device] as Device).model.forgetOffset();
          break;
        case "concurrentPush":
          await Promise.all(
            devices.map((d) =>
              push(
                d,
                d.model.outbox.map((e) => e.id),
              ),
            ),
          );
          break;
        case "rpcPhoto": {
          const inspections = t.client(InspectionService);
          const req = {
            inspectionId: inspectionIds[action.inspection] as string,
            photo: photos[action.photo] as string,
          };
          try {
            if (action.add) await inspections.addInspectionPhoto(req);
            else await inspections.removeInspectionPhoto(req);
          } catch (e) {
            if (ConnectError.from(e).code !== Code.NotFound) throw e;
          }
          break;
        }
      }
    }

    // Everything is delivered, and every device pulls to the end of the feed.
    for (const d of devices) await pushAll(d);
    for (const [i, d] of devices.entries()) await pullToEnd(d, [3, 7, 0][i] as number);
    expect(problems).toEqual([]);

    // Every device holds exactly the server's stored rows.
    const stored = await storedRows(keys);
    expect(Object.keys(stored)).toEqual([...keys].sort());
    for (const d of devices) expect(d.model.confirmed.snapshot()).toStrictEqual(stored);

    // The read API agrees: a live, complete row reads as stored, any other is not_found.
    const hives = t.client(HiveService);
    const inspections = t.client(InspectionService);
    for (const { entity, id } of rows) {
      const row = stored[rowKey(entity, id)] as RowState;
      const spec = entities[entity];
      const live = !row.deleted && isComplete(row, spec);
      let message: Record<string, unknown> | undefined;
      try {
        message =
          entity === "hive"
            ? (await hives.getHive({ id })).hive
            : (await inspections.getInspection({ id })).inspection;
      } catch (e) {
        if (ConnectError.from(e).code !== Code.NotFound) throw e;
      }
      expect(message !== undefined, `${entity} ${id} readable`).toBe(live);
      if (message === undefined) continue;
      for (const [column, colSpec] of Object.entries(spec.columns)) {
        if (!(column in row.values)) continue;
        const expected = row.values[column];
        const actual = message[camelCase(column)];
        if (colSpec.type === "orset") {
          expect(actual, column).toEqual(orSetValues(expected as OrSetState));
        } else if (colSpec.type === "timestamp") {
          const ts = actual as Parameters<typeof timestampDate>[0] | undefined;
          expect(ts && timestampDate(ts).toISOString(), column).toBe(expected ?? undefined);
        } else {
          expect(actual, column).toStrictEqual(expected);
        }
      }
    }

    // A row deleted anywhere is deleted everywhere.
    const allChanges = [...accepted, ...devices.flatMap((d) => d.log)];
    for (const c of allChanges.filter((c) => c.op === "delete")) {
      const key = rowKey(c.entity, c.entityId);
      expect(stored[key]?.deleted, key).toBe(true);
    }

    // No accepted write is lost: device pushes and the server's own writes (in the feed).
    expect(allChanges.flatMap((c) => lostParts(c, stored[rowKey(c.entity, c.entityId)]))).toEqual(
      [],
    );

    // Re-delivery is a no-op: pushing every acknowledged change again adds no feed row,
    // and applying the whole feed again changes no device.
    const head = await feedSeq();
    for (const d of devices) {
      const done = d.model.acknowledged;
      for (let i = 0; i < done.length; i += maxPushChanges) {
        await sync.push({ changes: done.slice(i, i + maxPushChanges).map(toProto) });
      }
    }
    expect(await feedSeq()).toBe(head);
    for (const d of devices) {
      expect(d.log).toStrictEqual(d0.log);
      for (const c of d.log) {
        expect(d.model.confirmed.apply(c).result.changed).toBe(false);
      }
      expect(d.model.confirmed.snapshot()).toStrictEqual(stored);
    }
    expect(await storedRows(keys)).toStrictEqual(stored);
  }

  it("a batch from a device running ahead is refused for its clock only, not for rows it creates", async () => {
    // An apiary, a hive in it and an inspection of that hive, made offline on a device whose
    // clock runs 1 h ahead: every change is refused for its stamp, and for nothing else (the
    // later changes rely on rows created earlier in the same batch, which will come back
    // re-stamped), so the call is invalid_argument and the device just re-stamps.
    const device = new ModelDevice({
      node: "dev-ahead",
      authorId: localUserId,
      skewMs: 3_600_000,
      errorMs: 0,
      now: Date.now,
    });
    const apiaryId = randomUUID();
    const hiveId = randomUUID();
    const write = (entity: EntityName, id: string, values: Values) =>
      device.write({ kind: "set", entity, id, scopeId: apiaryId, values });
    write("apiary", apiaryId, { name: "Ahead" });
    write("hive", hiveId, { apiary_id: apiaryId, name: "Early bird" });
    write("inspection", randomUUID(), {
      hive_id: hiveId,
      apiary_id: apiaryId,
      date: "2026-05-20T10:00:00.000Z",
    });
    const sync = t.client(SyncService);
    const head = await feedSeq();
    const err = ConnectError.from(
      await sync.push({ changes: device.batch(device.pick([0, 1, 2])).map(toProto) }).then(
        () => undefined,
        (e: unknown) => e,
      ),
    );
    const rejections = err.findDetails(PushRejectionSchema).flatMap((d) => d.rejections);
    expect(rejections.map((r) => [r.index, r.code, rejectedForSkew.test(r.reason)])).toEqual([
      [0, "invalid_argument", true],
      [1, "invalid_argument", true],
      [2, "invalid_argument", true],
    ]);
    expect(err.code).toBe(Code.InvalidArgument);
    expect(await feedSeq()).toBe(head);

    const { serverTime } = await sync.pull({ cursor: head, limit: 1 });
    const serverTimeMs = serverMs(serverTime);
    device.observeServerTime(serverTimeMs);
    expect(device.restamp(serverTimeMs).size).toBe(3);
    await sync.push({ changes: device.batch(device.pick([0, 1, 2])).map(toProto) });
    expect(Number(await feedSeq())).toBe(Number(head) + 3);
  });

  it("devices with skewed clocks, random batches, orders, duplicates and retries converge with the server", async () => {
    const stats: Stats = { skewRejections: 0 };
    await fc.assert(
      fc.asyncProperty(scenarioArb, (scenario) => runScenario(scenario, stats)),
      { numRuns },
    );
    // Every setup was refused for skew once (device 0 runs ahead) and re-stamped.
    expect(stats.skewRejections).toBeGreaterThanOrEqual(numRuns);
  }, 180_000);
});

/** The candidate value of a column's type. */
function valueFor(entity: EntityName, column: string, v: Candidates): unknown {
  const spec = entities[entity].columns[column];
  switch (spec?.type) {
    case "text":
      return spec.nonEmpty ? v.name : v.text;
    // Numbers within the column's range (the registry's min … max), as a device could push them.
    case "int":
      return inRange(spec, v.int);
    case "float":
      return inRange(spec, v.float);
    case "bool":
      return v.bool;
    case "enum": {
      const allowed = [0, ...(spec.enumValues ?? [])];
      return allowed[v.enumPick % allowed.length];
    }
    case "timestamp":
      return v.date.toISOString();
    default:
      throw new Error(`no candidate for ${entity}.${column}`);
  }
}

/** The candidate number, moved into the column's `min` … `max` when it lies outside (-0 kept). */
function inRange(spec: ColumnSpec, n: number): number {
  // Every numeric column has both bounds (client-core column-value.test.ts).
  const min = spec.min ?? (spec.type === "int" ? 1 : Number.MIN_VALUE);
  const max = spec.max ?? maxInt32;
  if (n >= min && n <= max) return n;
  const span = max - min;
  const moved = min + (Math.abs(n) % (spec.type === "int" ? span + 1 : span));
  return spec.type === "int" ? Math.floor(moved) : moved;
}
