/**
 * Convergence as a fast-check property, with real device clients and the real server: three
 * devices of one account (each run signs up a fresh organization, so runs never see each
 * other's rows) run random local operations of every record service — creates, overwrites,
 * relocations, deletes, photo adds and removals, queen introductions — and sync in a random
 * schedule. Then everyone syncs, and every replica holds the same rows, nothing pending, local
 * services answering what the server's answer, one reigning queen and at most one open
 * placement per hive, no live hive in a deleted apiary, no open task of a deleted hive, and a
 * notice on the creator's device of every hive the server's repair moved out of a deleted apiary
 * (issue 25). Modest size (15 runs of at most 25 operations) and no timing: the engine
 * runs only when the schedule says so (`syncNow`).
 */
import { Code, ConnectError } from "@connectrpc/connect";
import type { HivekeepClient } from "@hivekeep/client-core";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loginEnv, relaxedThrottle, signUp } from "../support/accounts.ts";
import { databaseKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { expectConverged, Network, openDevice, replicaRows, settle } from "./harness.ts";

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
  "addPhoto",
  "removePhoto",
  "createQueen",
  "updateQueen",
  "createTask",
  "setTaskDone",
  "createTreatment",
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
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("sync" as const), device: fc.nat(devicesPerRun - 1) }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("write" as const),
      device: fc.nat(devicesPerRun - 1),
      what: fc.constantFrom(...writeKinds),
      pick: fc.nat(20),
      pick2: fc.nat(20),
      word: fc.constantFrom("north", "south", "linden", "heath", "clover"),
    }),
  },
);

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

  it("random local operations on three devices, synced in a random order, converge", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 25 }), async (ops) => {
        const account = await signUp(t);
        const clients: HivekeepClient[] = [];
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
          await settle(clients);

          for (const op of ops) {
            const c = clients[op.device];
            if (!c) continue;
            if (op.kind === "sync") await c.sync.syncNow();
            else await write(c, op);
          }
          await settle(clients);

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
          const deletedHives = new Set((rows.hive ?? []).filter((h) => h.deleted).map((h) => h.id));
          const orphanTasks = (rows.task ?? []).filter(
            (x) =>
              !x.deleted && x.values.done !== true && deletedHives.has(String(x.values.hive_id)),
          );
          expect(orphanTasks.map((x) => x.id)).toEqual([]);
          // Issue 25: every hive the repair moved out of a deleted apiary is noticed on the
          // device that created it.
          const nodes = await Promise.all(
            clients.map(async (c) => String((await c.db.meta.get("node"))?.value ?? "")),
          );
          for (const e of rows.event ?? []) {
            const detail = JSON.parse(String(e.values.detail_json || "{}"));
            if (e.deleted || detail.restored !== true) continue;
            const hiveId = String(e.values.hive_id);
            const hive = (rows.hive ?? []).find((h) => h.id === hiveId);
            const creator = String(hive?.clock.name ?? "").split(":")[2] ?? "";
            const i = nodes.findIndex((n) => n !== "" && creator.startsWith(`${n.slice(0, 57)}-`));
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
      }),
      { numRuns: 15 },
    );
  });
});
