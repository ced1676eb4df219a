/**
 * Convergence as a fast-check property, with real device clients and the real server: three
 * devices of one account (each run signs up a fresh organization, so runs never see each
 * other's rows) run random local operations of every record service — creates, overwrites,
 * relocations, deletes, photo adds and removals, queen introductions — and sync in a random
 * schedule. Then everyone syncs, and every replica holds the same rows, nothing pending, local
 * services answering what the server's answer, one reigning queen and at most one open
 * placement per hive, no live hive in a deleted apiary, no open task of a deleted hive, and a
 * notice on the creator's device of every hive the server's repair moved out of a deleted apiary
 * (issue 25), and a notice of every write sync overrode on the device that wrote it (issue 25;
 * overridden.ts defines which, from the driver's record of every sync). Two profiles: every
 * operation (15 runs), and deletes against offline work on a richer start (8 runs of 12 to 25
 * operations). No timing: the engine runs only when the schedule says so (`syncNow`); the
 * timeout is only a ceiling. `HIVEKEEP_PROPERTY_SEED` (and `_PATH`) replay a failing run.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import type { HivekeepClient } from "@hivekeep/client-core";
import { SyncService } from "@hivekeep/proto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loginEnv, relaxedThrottle, signUp } from "../support/accounts.ts";
import { databaseKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { expectConverged, Network, openDevice, replicaRows } from "./harness.ts";
import { overriddenWrites, type SyncRecord } from "./overridden.ts";

/** `HIVEKEEP_PROPERTY_SEED` (and `HIVEKEEP_PROPERTY_PATH`) replay a failing run fast-check printed. */
const seed = process.env.HIVEKEEP_PROPERTY_SEED;
const replay = seed
  ? {
      seed: Number(seed),
      ...(process.env.HIVEKEEP_PROPERTY_PATH ? { path: process.env.HIVEKEEP_PROPERTY_PATH } : {}),
    }
  : {};

const photos = [
  "data:image/png;base64,AAAA",
  "data:image/png;base64,BBBB",
  "data:image/gif;base64,CCCC",
];

const writeKinds = [
  "createApiary",
  "updateApiary",
  "deleteApiary",
  "createHive",
  "updateHive",
  "relocateHive",
  "deleteHive",
  "createInspection",
  "updateInspection",
  "deleteInspection",
  "addPhoto",
  "removePhoto",
  "createQueen",
  "updateQueen",
  "deleteQueen",
  "createTask",
  "updateTask",
  "setTaskDone",
  "deleteTask",
  "createTreatment",
  "updateTreatment",
  "deleteTreatment",
  "createHarvest",
  "deleteHarvest",
] as const;
type WriteKind = (typeof writeKinds)[number];

type Op =
  | { readonly kind: "sync"; readonly device: number }
  | {
      readonly kind: "write";
      readonly device: number;
      readonly what: WriteKind;
      /** Which row (modulo the rows the device sees) and a second choice (target, photo). */
      readonly pick: number;
      readonly pick2: number;
      readonly word: string;
    };

const devicesPerRun = 3;
const opsOf = (kinds: readonly WriteKind[], syncWeight: number): fc.Arbitrary<Op> =>
  fc.oneof(
    {
      weight: syncWeight,
      arbitrary: fc.record({
        kind: fc.constant("sync" as const),
        device: fc.nat(devicesPerRun - 1),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant("write" as const),
        device: fc.nat(devicesPerRun - 1),
        what: fc.constantFrom(...kinds),
        pick: fc.nat(20),
        pick2: fc.nat(20),
        word: fc.constantFrom("north", "south", "linden", "heath", "clover"),
      }),
    },
  );

/**
 * Issue 25's profile: deletes against offline work. Half the writes delete (hives, records, an
 * apiary), the rest create and edit what the deletes hit, on a start with more to hit.
 */
const overrideKinds: readonly WriteKind[] = [
  ...(["deleteHive", "deleteHive", "deleteInspection", "deleteQueen", "deleteTask"] as const),
  ...(["deleteTreatment", "deleteHarvest", "deleteApiary"] as const),
  ...(["updateHive", "relocateHive", "createInspection", "updateInspection", "addPhoto"] as const),
  ...(["createQueen", "updateQueen", "createTask", "updateTask", "setTaskDone"] as const),
  ...(["updateTreatment", "createHarvest", "createHive", "updateApiary"] as const),
];

const profiles = [
  {
    name: "every operation",
    ops: opsOf(writeKinds, 1),
    numRuns: 15,
    minLength: 1,
    richStart: false,
  },
  {
    name: "deletes against offline work",
    ops: opsOf(overrideKinds, 1),
    numRuns: 8,
    minLength: 12,
    richStart: true,
  },
] as const;

const at = <T>(list: readonly T[], i: number): T | undefined =>
  list.length === 0 ? undefined : list[i % list.length];

/** Runs one write on a device's local services; a refusal by the operation writes nothing. */
async function write(c: HivekeepClient, op: Extract<Op, { kind: "write" }>): Promise<void> {
  const page = { pageSize: 500 };
  const apiaries = (await c.apiaries.listApiaries({ page })).apiaries;
  const hives = (await c.hives.listHives({ page })).hives;
  const apiary = at(apiaries, op.pick);
  const hive = at(hives, op.pick);
  try {
    switch (op.what) {
      case "createApiary":
        await c.apiaries.createApiary({ name: `Apiary ${op.word}` });
        return;
      case "updateApiary":
        if (apiary) {
          const { id, name, address, lat, lng } = apiary;
          await c.apiaries.updateApiary({ id, name: `${name} ${op.word}`, address, lat, lng });
        }
        return;
      case "deleteApiary":
        if (apiary) await c.apiaries.deleteApiary({ id: apiary.id });
        return;
      case "createHive": {
        if (apiary) await c.hives.createHive({ apiaryId: apiary.id, name: `Hive ${op.word}` });
        return;
      }
      case "updateHive":
        if (hive) await c.hives.updateHive({ hive: { ...hive, note: op.word, boxes: op.pick2 } });
        return;
      case "relocateHive": {
        const target = at(apiaries, op.pick2);
        if (hive && target) await c.hives.relocateHive({ id: hive.id, targetApiaryId: target.id });
        return;
      }
      case "deleteHive":
        if (hive) await c.hives.deleteHive({ id: hive.id });
        return;
      case "createInspection":
        if (hive) await c.inspections.createInspection({ hiveId: hive.id, note: op.word });
        return;
      case "updateInspection":
      case "deleteInspection": {
        const inspection = at((await c.inspections.listInspections({ page })).inspections, op.pick);
        if (!inspection) return;
        if (op.what === "deleteInspection") {
          await c.inspections.deleteInspection({ id: inspection.id });
        } else {
          await c.inspections.updateInspection({
            inspection: { ...inspection, note: op.word, frames: op.pick2 },
          });
        }
        return;
      }
      case "addPhoto":
      case "removePhoto": {
        const list = (await c.inspections.listInspections({ page })).inspections;
        const inspection = at(list, op.pick);
        if (!inspection) return;
        if (op.what === "addPhoto") {
          const photo = at(photos, op.pick2) ?? "";
          await c.inspections.addInspectionPhoto({ inspectionId: inspection.id, photo });
        } else {
          const photo = at(inspection.photoKeys, op.pick2);
          if (photo)
            await c.inspections.removeInspectionPhoto({ inspectionId: inspection.id, photo });
        }
        return;
      }
      case "createQueen":
        if (hive) await c.queens.createQueen({ hiveId: hive.id, year: 2020 + (op.pick2 % 6) });
        return;
      case "updateQueen": {
        const queen = at((await c.queens.listQueens({ page })).queens, op.pick);
        if (queen) await c.queens.updateQueen({ queen: { ...queen, note: op.word } });
        return;
      }
      case "deleteQueen": {
        const queen = at((await c.queens.listQueens({ page })).queens, op.pick);
        if (queen) await c.queens.deleteQueen({ id: queen.id });
        return;
      }
      case "createTask":
        await c.tasks.createTask({
          title: `Task ${op.word}`,
          ...(hive && op.pick2 % 2 === 0 ? { hiveId: hive.id } : {}),
        });
        return;
      case "setTaskDone": {
        const task = at((await c.tasks.listTasks({ page })).tasks, op.pick);
        if (task) await c.tasks.setTaskDone({ id: task.id, done: op.pick2 % 2 === 0 });
        return;
      }
      case "updateTask":
      case "deleteTask": {
        const task = at((await c.tasks.listTasks({ page })).tasks, op.pick);
        if (!task) return;
        if (op.what === "deleteTask") await c.tasks.deleteTask({ id: task.id });
        else await c.tasks.updateTask({ task: { ...task, title: `Task ${op.word}` } });
        return;
      }
      case "updateTreatment":
      case "deleteTreatment": {
        const treatment = at((await c.treatments.listTreatments({ page })).treatments, op.pick);
        if (!treatment) return;
        if (op.what === "deleteTreatment") await c.treatments.deleteTreatment({ id: treatment.id });
        else await c.treatments.updateTreatment({ treatment: { ...treatment, product: op.word } });
        return;
      }
      case "createTreatment":
        if (hive) await c.treatments.createTreatment({ hiveId: hive.id, product: op.word });
        return;
      case "createHarvest":
        if (hive) await c.harvests.createHarvest({ hiveId: hive.id, amountKg: 1 + op.pick2 });
        return;
      case "deleteHarvest": {
        const harvest = at((await c.harvests.listHarvests({ page })).harvests, op.pick);
        if (harvest) await c.harvests.deleteHarvest({ id: harvest.id });
        return;
      }
    }
  } catch (err) {
    // The operation refused (e.g. an apiary with hives, a move to where the hive stands):
    // the same refusal the server gives, and nothing was written.
    const ce = ConnectError.from(err);
    if (![Code.InvalidArgument, Code.FailedPrecondition, Code.NotFound].includes(ce.code)) {
      throw err;
    }
  }
}

describe.each(databaseKinds)("device convergence property on %s", (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind, loginEnv, { throttle: relaxedThrottle });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it.each(profiles)(
    "random local operations on three devices ($name), synced in a random order, converge",
    async (profile) => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(profile.ops, { minLength: profile.minLength, maxLength: 25 }),
          async (ops) => {
            const account = await signUp(t);
            const clients: HivekeepClient[] = [];
            // The driver's record of every sync, in order: what it pushed (the device's outbox just
            // before) and what the server accepted meanwhile (the account's feed, read after it).
            const syncs: SyncRecord[] = [];
            const observer = account.t.client(SyncService);
            let cursor = "";
            const syncDevice = async (device: number) => {
              const c = clients[device];
              if (!c) return;
              const pushed = (await c.db.outbox.toArray()).map((e) => e.change);
              await c.sync.syncNow();
              const accepted = [];
              for (;;) {
                const r = await observer.pull({ cursor, limit: 5000 });
                accepted.push(...r.changes);
                cursor = r.nextCursor;
                if (!r.hasMore) break;
              }
              syncs.push({ device, pushed, accepted });
            };
            const settle = async () => {
              for (let round = 0; round < 2; round++) {
                for (let i = 0; i < clients.length; i++) await syncDevice(i);
              }
            };
            try {
              for (let i = 0; i < devicesPerRun; i++) {
                clients.push(
                  await openDevice({
                    net: new Network(t.url),
                    getToken: async () => account.token,
                  }),
                );
              }
              // A start every device has: two apiaries, a hive with a queen and an inspection.
              const [first] = clients;
              if (!first) throw new Error("no device");
              const x = (await first.apiaries.createApiary({ name: "Home" })).apiary?.id ?? "";
              await first.apiaries.createApiary({ name: "Heath" });
              const hive = (await first.hives.createHive({ apiaryId: x, name: "Linden" })).hive?.id;
              await first.queens.createQueen({ hiveId: hive ?? "", year: 2024 });
              await first.inspections.createInspection({ hiveId: hive ?? "" });
              if (profile.richStart) {
                // More to hit: two more hives with a record of every kind, one apiary without hives.
                for (const name of ["Clover", "Heather"]) {
                  const id = (await first.hives.createHive({ apiaryId: x, name })).hive?.id ?? "";
                  await first.queens.createQueen({ hiveId: id, year: 2025 });
                  await first.inspections.createInspection({ hiveId: id, note: name });
                  await first.tasks.createTask({ title: `Feed ${name}`, hiveId: id });
                  await first.treatments.createTreatment({ hiveId: id, product: "oxalic" });
                  await first.harvests.createHarvest({ hiveId: id, amountKg: 3 });
                }
                await first.apiaries.createApiary({ name: "Moor" });
              }
              await settle();

              for (const op of ops) {
                const c = clients[op.device];
                if (!c) continue;
                if (op.kind === "sync") await syncDevice(op.device);
                else await write(c, op);
              }
              await settle();

              const server = account.t;
              await expectConverged(server, clients);
              for (const c of clients) expect(c.sync.status.quarantined).toEqual([]);
              // The invariants the server repairs: one reigning queen, at most one open placement.
              const rows = await replicaRows(first);
              const live = (rows.hive ?? []).filter((h) => !h.deleted);
              for (const h of live) {
                const reigning = (rows.queen ?? []).filter(
                  (q) => q.values.hive_id === h.id && !q.deleted && q.values.active === true,
                );
                expect(reigning.length, `reigning queens of hive ${h.id}`).toBeLessThanOrEqual(1);
                const open = (rows.placement ?? []).filter(
                  (p) => p.values.hive_id === h.id && !p.deleted && p.values.ended_at === null,
                );
                expect(open.map((p) => p.values.apiary_id)).toEqual([h.values.apiary_id]);
                // Issue 25: no live hive in a deleted apiary.
                const apiary = (rows.apiary ?? []).find((a) => a.id === h.values.apiary_id);
                expect(apiary?.deleted, `apiary of live hive ${h.id}`).toBe(false);
              }
              // Issue 25: no open task of a deleted hive.
              const deletedHives = new Set(
                (rows.hive ?? []).filter((h) => h.deleted).map((h) => h.id),
              );
              const orphanTasks = (rows.task ?? []).filter(
                (x) =>
                  !x.deleted &&
                  x.values.done !== true &&
                  deletedHives.has(String(x.values.hive_id)),
              );
              expect(orphanTasks.map((x) => x.id)).toEqual([]);
              // Issue 25: every hive the repair moved out of a deleted apiary is noticed on the
              // device that created it.
              const nodes = await Promise.all(
                clients.map(async (c) => String((await c.db.meta.get("node"))?.value ?? "")),
              );
              // Issue 25: every write of a device that sync overrode (overridden.ts says which) is
              // noticed on that device.
              const notices = await Promise.all(
                clients.map(async (c) => new Set((await c.notices.list()).map((n) => n.key))),
              );
              for (const o of overriddenWrites(syncs, rows, nodes)) {
                expect(
                  notices[o.device]?.has(o.key),
                  `device ${o.device}: ${o.reason} ${o.write} has a notice`,
                ).toBe(true);
              }
              for (const e of rows.event ?? []) {
                const detail = JSON.parse(String(e.values.detail_json || "{}"));
                if (e.deleted || detail.restored !== true) continue;
                const hiveId = String(e.values.hive_id);
                const hive = (rows.hive ?? []).find((h) => h.id === hiveId);
                const creator = String(hive?.clock.name ?? "").split(":")[2] ?? "";
                const i = nodes.findIndex(
                  (n) => n !== "" && creator.startsWith(`${n.slice(0, 57)}-`),
                );
                const device = clients[i];
                if (device === undefined) continue;
                const keys = (await device.notices.list()).map((n) => n.key);
                expect(keys, `notice of moved hive ${hiveId} on its creator`).toContain(
                  `hive/${hiveId}`,
                );
              }
            } finally {
              for (const c of clients) await c.close();
            }
          },
        ),
        // A run takes seconds: shrinking a failure through many runs outlasts the ceiling and
        // hides the counterexample behind a timeout. Stop at the first failure and print it
        // (its seed and path replay it: HIVEKEEP_PROPERTY_SEED / _PATH).
        { numRuns: profile.numRuns, endOnFailure: true, ...replay },
      );
    },
    // A ceiling for a slow machine, not a timing assertion.
    600_000,
  );
});
