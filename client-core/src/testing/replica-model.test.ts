/**
 * Convergence of the sync protocol (DESIGN.md §4) as a property of the pure model
 * (replica-model.ts): three devices whose wall clocks are off by up to ±24 h write random
 * scalar edits, photo adds and removals and deletes to a few shared hive and inspection rows,
 * offline; they push random batches in random order (a photo removal with the add it names, as
 * an outbox pushed in order sends them; some held back, some whose response is lost, so pushed
 * again), pull pages of random size (some applied without the cursor being
 * saved, so pulled again), and the server writes too. Devices exchange changes only through
 * the server. The same scenario is run over the real server in test/sync/convergence.test.ts.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Change, rowKey } from "../core/change.ts";
import type { EntityName } from "../core/entities.ts";
import { entities } from "../core/entities.ts";
import { isTooFarAhead } from "../core/hlc.ts";
import { applyChange, emptyRow, type RowState, type Values } from "../core/merge.ts";
import { type OrSetState, orSetValues } from "../core/or-set.ts";
import { type Intent, lostParts, ModelDevice, ModelServer, Replica } from "./replica-model.ts";

const day = 86_400_000;
const start = Date.UTC(2026, 4, 20, 10);
const scopeId = "apiary-1";
const rows: readonly { entity: EntityName; id: string }[] = [
  { entity: "hive", id: "hive-1" },
  { entity: "hive", id: "hive-2" },
  { entity: "inspection", id: "insp-1" },
  { entity: "inspection", id: "insp-2" },
];
const keys = rows.map((r) => rowKey(r.entity, r.id));

/** Few values per column, so concurrent writers often collide. */
const columnValues: Readonly<Partial<Record<EntityName, Record<string, readonly unknown[]>>>> = {
  hive: {
    name: ["Anna", "Bea", "Cleo"],
    note: ["", "calm", "swarmy"],
    boxes: [1, 2, 3],
    status: [1, 2, 3, 5],
  },
  inspection: {
    note: ["", "ok", "queen cells"],
    frames: [6, 8, 10],
    queen_seen: [true, false],
    weight_kg: [1.5, 2.25, 0],
    date: ["2026-05-01T08:00:00.000Z", "2026-05-02T09:30:00.000Z"],
  },
};
const photos = [
  "data:image/png;base64,AAAA",
  "data:image/png;base64,BBBB",
  "data:image/jpeg;base64,CCCC",
];

// ---- arbitraries ------------------------------------------------------------------------

const skewArb = fc.oneof(
  fc.constantFrom(-day, -61_000, 0, 61_000, day),
  fc.integer({ min: -day, max: day }),
);
const deviceArb = fc.record({ skewMs: skewArb, errorMs: fc.integer({ min: -5_000, max: 5_000 }) });

type RawIntent =
  | { kind: "set"; row: number; set: [number, number][] }
  | { kind: "photoAdd"; row: number; photo: number }
  | { kind: "photoRemove"; row: number; pick: number }
  | { kind: "delete"; row: number };

const rowArb = fc.nat(rows.length - 1);
const intentArb: fc.Arbitrary<RawIntent> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("set" as const),
      row: rowArb,
      set: fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 3 }),
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
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("photoRemove" as const),
      row: rowArb,
      pick: fc.nat(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const), row: rowArb }) },
);

/** The intent on one of the shared rows; photo intents on a hive edit its note instead. */
function toIntent(raw: RawIntent): Intent {
  const { entity, id } = rows[raw.row] as (typeof rows)[number];
  const table = columnValues[entity] ?? {};
  const columns = Object.keys(table);
  const set = (pairs: readonly [number, number][]): Intent => {
    const values: Values = {};
    for (const [c, v] of pairs) {
      const column = columns[c % columns.length] as string;
      const choices = table[column] as readonly unknown[];
      values[column] = choices[v % choices.length];
    }
    return { kind: "set", entity, id, scopeId, values };
  };
  switch (raw.kind) {
    case "set":
      return set(raw.set);
    case "delete":
      return { kind: "delete", entity, id, scopeId };
    case "photoAdd":
      return entity === "inspection"
        ? { kind: "photoAdd", id, scopeId, photo: photos[raw.photo] as string }
        : set([[1, raw.photo]]);
    case "photoRemove":
      return entity === "inspection"
        ? { kind: "photoRemove", id, scopeId, pick: raw.pick }
        : set([[1, raw.pick]]);
  }
}

const device = fc.nat(2);
type Action =
  | { type: "write"; device: number; intent: RawIntent }
  | { type: "push"; device: number; picks: number[]; lost: boolean; hold: boolean }
  | { type: "deliverHeld"; device: number; pick: number; lost: boolean }
  | { type: "pull"; device: number; limit: number; crash: boolean }
  | { type: "advance"; ms: number }
  | { type: "restart"; device: number }
  | { type: "serverWrite"; intent: RawIntent }
  | { type: "repush"; device: number; pick: number };

const rarely = fc.nat(3).map((n) => n === 0);
const actionArb: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record({ type: fc.constant("write" as const), device, intent: intentArb }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      type: fc.constant("push" as const),
      device,
      picks: fc.array(fc.nat(), { minLength: 1, maxLength: 5 }),
      lost: rarely,
      hold: rarely,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant("deliverHeld" as const),
      device,
      pick: fc.nat(),
      lost: rarely,
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      type: fc.constant("pull" as const),
      device,
      limit: fc.integer({ min: 1, max: 6 }),
      crash: rarely,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant("advance" as const),
      ms: fc.integer({ min: 0, max: 2 * 3_600_000 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constant("restart" as const), device }) },
  {
    weight: 1,
    arbitrary: fc.record({ type: fc.constant("serverWrite" as const), intent: intentArb }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ type: fc.constant("repush" as const), device, pick: fc.nat() }),
  },
);

const scenarioArb = fc.record({
  devices: fc.array(deviceArb, { minLength: 3, maxLength: 3 }),
  actions: fc.array(actionArb, { minLength: 1, maxLength: 80, size: "max" }),
  seed: fc.integer(),
});
type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

// ---- the simulation -------------------------------------------------------------------

interface Stats {
  skewRejections: number;
  renamedTags: number;
  lostResponses: number;
  redeliveries: number;
  conflicts: number;
}

interface Outcome {
  server: ModelServer;
  devices: ModelDevice[];
  /** Every change of every push the server accepted (whoever saw the response), and its own. */
  accepted: Change[];
  /** Re-deliveries of an already applied change that changed something (must stay empty). */
  redeliveryChanges: string[];
  /** Replicas on which a deleted row came back, at any step (must stay empty). */
  undeleted: string[];
  /** Keys seen deleted on any replica (server, device confirmed or shown) at any step. */
  deletedAnywhere: Set<string>;
  /** Re-stamps that changed what the device shows (must stay empty). */
  restampChangedView: string[];
  /** Outbox entries left after the final delivery rounds (must be none). */
  undelivered: number;
  stats: Stats;
}

const statsTotal: Stats = {
  skewRejections: 0,
  renamedTags: 0,
  lostResponses: 0,
  redeliveries: 0,
  conflicts: 0,
};

function simulate({ devices: specs, actions }: Scenario): Outcome {
  let now = start;
  const clockNow = () => now;
  const server = new ModelServer(clockNow);
  const devices = specs.map(
    (s, i) => new ModelDevice({ node: `dev-${i}`, authorId: "user-1", ...s, now: clockNow }),
  );
  const cursors = devices.map(() => 0);
  /** Feed positions below which a device has applied everything (cursor saved or not). */
  const appliedUpTo = devices.map(() => 0);
  const held: number[][][] = devices.map(() => []);
  const appliedAtServer = new Set<string>();
  const accepted: Change[] = [];
  const redeliveryChanges: string[] = [];
  const restampChangedView: string[] = [];
  const undeleted: string[] = [];
  const deletedAnywhere = new Set<string>();
  const deletedOn = new Map<string, Set<string>>();
  const stats: Stats = {
    skewRejections: 0,
    renamedTags: 0,
    lostResponses: 0,
    redeliveries: 0,
    conflicts: 0,
  };

  const dev = (i: number) => devices[i] as ModelDevice;
  const changeId = (c: Change) => `${c.hlc} ${c.op} ${JSON.stringify(c.payload)}`;

  const pull = (d: number, limit: number, crash = false) => {
    const page = server.pull(cursors[d] as number, limit);
    const device = dev(d);
    device.observeServerTime(page.serverTimeMs);
    const results = device.applyPulled(page.changes);
    const from = cursors[d] as number;
    results.forEach((r, i) => {
      if (from + i >= (appliedUpTo[d] as number)) return;
      stats.redeliveries++;
      if (r.changed) redeliveryChanges.push(`device ${d} re-pulled feed[${from + i}]`);
    });
    appliedUpTo[d] = Math.max(appliedUpTo[d] as number, page.next);
    if (!crash) cursors[d] = page.next;
    return page;
  };

  const push = (d: number, ids: readonly number[], lost = false) => {
    const device = dev(d);
    const batch = device.batch(ids);
    if (batch.length === 0) return;
    const outcome = server.push(batch);
    if (outcome.ok) {
      outcome.results.forEach((r, i) => {
        const c = batch[i] as Change;
        if (r.lost.length > 0) stats.conflicts++;
        if (appliedAtServer.has(changeId(c))) {
          stats.redeliveries++;
          if (r.changed) redeliveryChanges.push(`server re-applied ${changeId(c)}`);
        }
        appliedAtServer.add(changeId(c));
      });
      accepted.push(...batch);
    } else {
      stats.skewRejections++;
      for (const r of outcome.rejections) {
        const c = batch[r.index] as Change;
        // The only rule the model can break is the clock rule.
        if (!isTooFarAhead(c.hlc, now)) throw new Error(`unexpected rejection: ${r.reason}`);
      }
    }
    if (lost) {
      stats.lostResponses++;
      return;
    }
    if (outcome.ok) {
      device.observeServerTime(outcome.serverTimeMs);
      device.acknowledge(ids);
    } else {
      // A refused Push carries no serverTime: measure it with a Pull, then re-stamp.
      const { serverTimeMs } = pull(d, 1);
      const before = keys.map((k) => shown(device.view(k)));
      const renamed = device.restamp(serverTimeMs);
      const after = keys.map((k) => shown(device.view(k)));
      if (JSON.stringify(after) !== JSON.stringify(before)) {
        restampChangedView.push(
          `device ${d}: ${JSON.stringify(before)} → ${JSON.stringify(after)}`,
        );
      }
      const fresh = new Set<string>(renamed.values());
      for (const { change } of device.outbox) {
        const patch = change.payload.photo_keys as { remove?: string[] } | undefined;
        stats.renamedTags += patch?.remove?.filter((t) => fresh.has(t)).length ?? 0;
      }
    }
  };

  const observeDeletes = () => {
    const replicas: [string, (key: string) => RowState | undefined][] = [
      ["server", (k) => server.rows.rows.get(k)],
      ...devices.flatMap((d, i): [string, (key: string) => RowState | undefined][] => [
        [`device ${i} confirmed`, (k) => d.confirmed.rows.get(k)],
        [`device ${i} view`, (k) => d.view(k)],
      ]),
    ];
    for (const [name, rowOf] of replicas) {
      const seen = deletedOn.get(name) ?? new Set<string>();
      deletedOn.set(name, seen);
      for (const key of keys) {
        const deleted = rowOf(key)?.deleted === true;
        if (seen.has(key) && !deleted) undeleted.push(`${key} came back on ${name}`);
        if (deleted) {
          seen.add(key);
          deletedAnywhere.add(key);
        }
      }
    }
  };

  for (const action of actions) {
    switch (action.type) {
      case "write":
        dev(action.device).write(toIntent(action.intent));
        break;
      case "push": {
        const ids = dev(action.device).pick(action.picks);
        if (action.hold) (held[action.device] as number[][]).push(ids);
        else push(action.device, ids, action.lost);
        break;
      }
      case "deliverHeld": {
        const queue = held[action.device] as number[][];
        if (queue.length === 0) break;
        const [ids] = queue.splice(action.pick % queue.length, 1) as [number[]];
        push(action.device, ids, action.lost);
        break;
      }
      case "pull":
        pull(action.device, action.limit, action.crash);
        break;
      case "advance":
        now += action.ms;
        break;
      case "restart":
        dev(action.device).forgetOffset();
        break;
      case "serverWrite":
        for (const c of server.write(toIntent(action.intent))) {
          accepted.push(c);
          appliedAtServer.add(changeId(c));
        }
        break;
      case "repush": {
        // A stale duplicate of an acknowledged change (e.g. a retry of an old request).
        const done = dev(action.device).acknowledged;
        const c = done[action.pick % Math.max(done.length, 1)];
        if (c === undefined) break;
        const outcome = server.push([c]);
        stats.redeliveries++;
        if (!outcome.ok || outcome.results[0]?.changed) {
          redeliveryChanges.push(`server re-push of ${changeId(c)}`);
        }
        break;
      }
    }
    observeDeletes();
  }

  // Everything is delivered: each device pushes its whole outbox until it drains
  // (re-stamping what the server refuses), then pulls to the end of the feed.
  for (let round = 0; round < 3; round++) {
    devices.forEach((d, i) => {
      push(
        i,
        d.outbox.map((e) => e.id),
      );
    });
  }
  devices.forEach((_, i) => {
    while (pull(i, 7).hasMore);
  });
  observeDeletes();
  for (const [k, v] of Object.entries(stats)) statsTotal[k as keyof Stats] += v;
  return {
    server,
    devices,
    accepted,
    redeliveryChanges,
    undeleted,
    deletedAnywhere,
    restampChangedView,
    undelivered: devices.reduce((n, d) => n + d.outbox.length, 0),
    stats,
  };
}

/** What a device shows of a row: the values (photos as their list) and whether it is deleted. */
function shown(row: RowState | undefined): unknown {
  if (row === undefined) return undefined;
  const values = Object.entries(row.values).map(([column, value]) =>
    column === "photo_keys" ? [column, orSetValues(value as OrSetState)] : [column, value],
  );
  return { deleted: row.deleted, values: Object.fromEntries(values.sort()) };
}

/** A small deterministic PRNG (mulberry32), for orders drawn from a generated seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const numRuns = 300;

describe("replica model: random changes from 3 devices, random order, duplicates, ±24 h skew", () => {
  it("every device's rows deep-equal the server's once everything is delivered", () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        const { server, devices, undelivered } = simulate(scenario);
        expect(undelivered).toBe(0);
        const expected = server.rows.snapshot();
        for (const d of devices) {
          expect(d.confirmed.snapshot()).toStrictEqual(expected);
          for (const key of keys) expect(d.view(key)).toStrictEqual(server.rows.rows.get(key));
        }
      }),
      { numRuns },
    );
    // The generator does reach the interesting paths.
    expect(statsTotal.skewRejections).toBeGreaterThan(0);
    expect(statsTotal.renamedTags).toBeGreaterThan(0);
    expect(statsTotal.lostResponses).toBeGreaterThan(0);
    expect(statsTotal.conflicts).toBeGreaterThan(0);
  });

  it("a replica that gets the whole feed in any order, with duplicates, equals the server", () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        const { server } = simulate(scenario);
        const random = prng(scenario.seed);
        const order = server.feed.map((_, i) => i);
        for (let i = order.length - 1; i > 0; i--) {
          const j = Math.floor(random() * (i + 1));
          [order[i], order[j]] = [order[j] as number, order[i] as number];
        }
        // Each entry once in a shuffled order, with duplicates (some delivered early) mixed in.
        const late = new Replica();
        for (const i of order) {
          late.apply(server.feed[i] as Change);
          if (random() < 0.3)
            late.apply(server.feed[Math.floor(random() * order.length)] as Change);
        }
        expect(late.snapshot()).toStrictEqual(server.rows.snapshot());
      }),
      { numRuns },
    );
  });

  it("re-delivering an applied change changes nothing (changed === false), anywhere", () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        const { server, devices, accepted, redeliveryChanges } = simulate(scenario);
        // During the run: lost-response retries, re-pushes, re-pulls after a crash.
        expect(redeliveryChanges).toEqual([]);
        // At the end: every accepted change again at the server, the whole feed again on
        // every device.
        const before = server.rows.snapshot();
        for (const c of accepted) {
          const key = rowKey(c.entity, c.entityId);
          const result = applyChange(server.rows.rows.get(key), c, entities[c.entity]);
          expect(result.changed, `server: ${c.hlc}`).toBe(false);
          expect(result.row).toStrictEqual(server.rows.state(key) ?? emptyRow());
        }
        for (const d of devices) {
          for (const c of server.feed) expect(d.confirmed.apply(c).result.changed).toBe(false);
          expect(d.confirmed.snapshot()).toStrictEqual(before);
        }
        expect(server.rows.snapshot()).toStrictEqual(before);
      }),
      { numRuns },
    );
  });

  it("a row deleted on any replica is deleted everywhere at the end and never comes back", () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        const { server, devices, accepted, undeleted, deletedAnywhere } = simulate(scenario);
        expect(undeleted).toEqual([]);
        const deletes = accepted.filter((c) => c.op === "delete");
        for (const key of [
          ...deletedAnywhere,
          ...deletes.map((c) => rowKey(c.entity, c.entityId)),
        ]) {
          expect(server.rows.rows.get(key)?.deleted, key).toBe(true);
          for (const d of devices) expect(d.confirmed.rows.get(key)?.deleted, key).toBe(true);
        }
      }),
      { numRuns },
    );
  });

  it("re-stamping refused changes keeps what the device shows (removals follow their adds)", () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        const { restampChangedView, undelivered } = simulate(scenario);
        expect(restampChangedView).toEqual([]);
        expect(undelivered).toBe(0);
      }),
      { numRuns },
    );
  });

  it("no accepted write is lost: each survives unless a strictly greater HLC overwrote it", () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        const { server, devices, accepted } = simulate(scenario);
        // Every write every device made was accepted in the end (re-stamped if it had to be).
        const made = devices.flatMap((d) => d.acknowledged);
        expect(made.every((c) => accepted.includes(c))).toBe(true);
        const problems = accepted.flatMap((c) =>
          lostParts(c, server.rows.rows.get(rowKey(c.entity, c.entityId))),
        );
        expect(problems).toEqual([]);
      }),
      { numRuns },
    );
  });
});
