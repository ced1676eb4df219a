/**
 * The invariants a column merge cannot keep, repaired by the server (DESIGN.md §6; the rule is
 * client-core/src/core/invariants.ts, the hook server/src/store/tenant-write.ts): two devices
 * that each introduce a queen into one hive, or each relocate it, offline and push in either
 * order leave exactly one reigning queen and one open placement (at hive.apiary_id), and the
 * repair travels in the feed, so a device that applies the feed holds the server's rows.
 */
import { randomUUID } from "node:crypto";
import {
  type Change,
  type CommandContext,
  createHive,
  createQueen,
  createTask,
  deleteApiary,
  deleteHive,
  type EntityName,
  EventType,
  entities,
  formatHlc,
  type HiveState,
  type Hlc,
  hlcMs,
  holdingApiaryId,
  maxPullLimit,
  parseWireChange,
  relocateHive,
  rowKey,
} from "@hivekeep/client-core/core";
import { HiveStatus, HiveType, SyncService, TaskPriority } from "@hivekeep/proto";
import { localOrganizationId, localUserId } from "@hivekeep/server";
import { beforeAll, describe, expect, it } from "vitest";
import { Replica } from "../../client-core/src/testing/replica-model.ts";
import { rowStateFromDb } from "../../server/src/store/row-state.ts";
import { databaseKinds } from "../support/databases.ts";
import {
  callOk,
  feedHead,
  newApiary,
  newHive,
  pullAll,
  useTestServer,
} from "../support/fixtures.ts";
import type { TestServer } from "../support/server.ts";
import { pushOk } from "../support/sync.ts";

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Where the devices' clocks start: after every stamp in the feed (a device has pulled the
 * hive before it goes offline), and not before now.
 */
async function clockBase(t: TestServer): Promise<number> {
  const { changes } = await pullAll(t);
  return Math.max(Date.now(), ...changes.map((c) => hlcMs(c.hlc as Hlc)));
}

/**
 * A device writing offline through the pure commands, stamping at `ms` (a fraction of a second
 * after `clockBase`, well within the 60 s the server allows): which device stamps later
 * decides last-writer-wins between them.
 */
function offlineDevice(node: string, ms: number): CommandContext {
  let counter = 0;
  return {
    now: new Date(),
    authorId: localUserId,
    newId: () => randomUUID(),
    stamp: () => formatHlc({ ms, counter: counter++, node }),
  };
}

/** Every row of the tenant's `table` about the hive, as the server stores it. */
async function serverRows(t: TestServer, entity: EntityName, hiveId: string) {
  const spec = entities[entity];
  const column = entity === "hive" ? "id" : "hive_id";
  const rows = await t.server.db.query(
    `select * from ${spec.table} where organization_id = $1 and ${column} = $2 order by id`,
    [localOrganizationId, hiveId],
  );
  return rows.map((r) => ({ id: String(r.id), state: rowStateFromDb(r, spec) }));
}

/** A device that has applied the whole feed (binary Pull) with the shared merge. */
async function replicaOfFeed(t: TestServer): Promise<Replica> {
  const replica = new Replica();
  const sync = t.client(SyncService);
  let cursor = "";
  for (;;) {
    const page = await sync.pull({ cursor, limit: maxPullLimit });
    for (const [i, wire] of page.changes.entries()) {
      const parsed = parseWireChange(wire, wire.authorId, i);
      if ("error" in parsed) throw new Error(parsed.error.reason);
      replica.apply(parsed.value);
    }
    cursor = page.nextCursor;
    if (!page.hasMore) return replica;
  }
}

/** The device holds exactly the server's hive, queens, placements and events of the hive. */
async function expectReplicaEqualsServer(t: TestServer, hiveId: string): Promise<void> {
  const replica = await replicaOfFeed(t);
  for (const entity of ["hive", "queen", "placement", "event"] as const) {
    const rows = await serverRows(t, entity, hiveId);
    if (entity !== "queen") expect(rows.length, entity).toBeGreaterThan(0);
    for (const { id, state } of rows) {
      expect(replica.state(rowKey(entity, id)), `${entity} ${id}`).toEqual(state);
    }
  }
}

const openPlacements = async (t: TestServer, hiveId: string) =>
  (await serverRows(t, "placement", hiveId)).filter(
    (p) => !p.state.deleted && p.state.values.ended_at === null,
  );

describe.each(databaseKinds)("Invariants repaired by the server on %s", (kind) => {
  const t = useTestServer(kind);
  let apiaryA: string;
  let apiaryB: string;
  let apiaryC: string;
  beforeAll(async () => {
    apiaryA = await newApiary(t, "A");
    apiaryB = await newApiary(t, "B");
    apiaryC = await newApiary(t, "C");
  });

  /** A hive at A, its open placement, and the state both devices relocate it from. */
  async function hiveAtA(name: string): Promise<HiveState> {
    const hiveId = await newHive(t, apiaryA, name);
    const [p0] = await openPlacements(t, hiveId);
    if (!p0) throw new Error("CreateHive opened no placement");
    return {
      id: hiveId,
      name,
      apiaryId: apiaryA,
      status: HiveStatus.ACTIVE,
      queenId: "",
      openPlacements: [
        { id: p0.id, apiaryId: apiaryA, startedAt: String(p0.state.values.started_at) },
      ],
    };
  }

  describe("one reigning queen per hive", () => {
    /**
     * A hive at A with queen Q0 (2025), and the changes of two devices that each introduce a
     * queen offline: the first device's introduced on 10 April, the second's on 20 April, and
     * the first device stamps later (so LWW alone would not pick the later introduction).
     */
    async function twoIntroductions(name: string) {
      const hiveId = await newHive(t, apiaryA, name);
      const q0 = (
        await callOk(t, "QueenService/CreateQueen", {
          hiveId,
          year: 2025,
          introducedAt: "2025-05-01T00:00:00Z",
        })
      ).queen;
      const hive = {
        id: hiveId,
        apiaryId: apiaryA,
        apiaryAtIntroduction: apiaryA,
        activeQueens: [{ id: q0.id, year: 2025 }],
      };
      const fields = { hiveId, marking: 0, origin: "", breederNumber: "", note: "" };
      const base = await clockBase(t);
      const first = createQueen(offlineDevice("dev-q1", base + 200), hive, {
        ...fields,
        year: 2026,
        introducedAt: "2026-04-10T08:00:00.000Z",
      });
      const second = createQueen(offlineDevice("dev-q2", base + 100), hive, {
        ...fields,
        year: 2026,
        introducedAt: "2026-04-20T08:00:00.000Z",
      });
      return { hiveId, q0: q0.id as string, first, second };
    }

    for (const order of ["first device first", "second device first"] as const) {
      it(`leaves one reigning queen, the other replaced with a QUEEN_REPLACED event (${order})`, async () => {
        const { hiveId, q0, first, second } = await twoIntroductions(`Queens, ${order}`);
        const pushes = order === "first device first" ? [first, second] : [second, first];
        const head = await feedHead(t);
        await pushOk(t, pushes[0]?.changes ?? []);
        const afterFirst = (await pullAll(t, head)).changes;
        const between = await feedHead(t);
        await pushOk(t, pushes[1]?.changes ?? []);

        // The queen introduced last reigns, whoever pushed last.
        const active = await callOk(t, "QueenService/ListQueens", { hiveId, onlyActive: true });
        expect(active.queens.map((q: { id: string }) => q.id)).toEqual([second.id]);
        const loser = (await callOk(t, "QueenService/GetQueen", { id: first.id })).queen;
        expect(loser).not.toHaveProperty("active");
        expect(loser.replacedAt).toBe("2026-04-20T08:00:00Z");
        const old = (await callOk(t, "QueenService/GetQueen", { id: q0 })).queen;
        expect(old).not.toHaveProperty("active");

        const events = await callOk(t, "EventService/ListEvents", { queenId: first.id });
        expect(events.events.map((e: { type: string }) => e.type)).toEqual([
          "EVENT_TYPE_QUEEN_REPLACED",
          "EVENT_TYPE_QUEEN_INTRODUCED",
        ]);
        expect(events.events[0]).toMatchObject({
          apiaryId: apiaryA,
          hiveId,
          queenId: first.id,
          refEntity: "queen",
          refId: first.id,
          date: "2026-04-20T08:00:00Z",
          authorId: localUserId,
        });
        expect(JSON.parse(events.events[0].detailJson)).toEqual({ replacedBy: second.id });

        // Nothing to repair after the first push; the second push's feed ends with the repair,
        // stamped by the server after everything it repaired.
        expect(afterFirst.every((c) => !c.hlc.includes(":srv-"))).toBe(true);
        const afterSecond = (await pullAll(t, between)).changes;
        const repair = afterSecond.filter((c) => c.hlc.includes(":srv-"));
        expect(repair.map((c) => [c.entity, c.entity === "queen" ? c.entityId : ""])).toEqual([
          ["queen", first.id],
          ["event", ""],
        ]);
        expect(JSON.parse(repair[0]?.payloadJson ?? "{}")).toMatchObject({
          active: false,
          replaced_at: "2026-04-20T08:00:00.000Z",
        });
        expect(JSON.parse(repair[1]?.payloadJson ?? "{}").type).toBe(EventType.QUEEN_REPLACED);
        expect(repair.every((c) => c.scopeId === apiaryA && c.authorId === localUserId)).toBe(true);
        const pushed = afterSecond.filter((c) => !c.hlc.includes(":srv-")).map((c) => c.hlc);
        expect(repair.every((r) => pushed.every((h) => r.hlc > h))).toBe(true);

        await expectReplicaEqualsServer(t, hiveId);

        // Pushing both batches again changes nothing and repairs nothing.
        const end = await feedHead(t);
        await pushOk(t, first.changes);
        await pushOk(t, second.changes);
        expect(await feedHead(t)).toBe(end);
      });
    }

    it("repairs an RPC write too: UpdateQueen making a replaced queen active again", async () => {
      const { hiveId, first, second } = await twoIntroductions("Queens, RPC");
      await pushOk(t, [...first.changes, ...second.changes]);
      const loser = (await callOk(t, "QueenService/GetQueen", { id: first.id })).queen;
      // The older queen cannot reign while a later one does: the repair replaces her again.
      const updated = (
        await callOk(t, "QueenService/UpdateQueen", {
          queen: { ...loser, active: true, replacedAt: undefined },
        })
      ).queen;
      expect(updated).not.toHaveProperty("active");
      expect(updated.replacedAt).toBe("2026-04-20T08:00:00Z");
      const active = await callOk(t, "QueenService/ListQueens", { hiveId, onlyActive: true });
      expect(active.queens.map((q: { id: string }) => q.id)).toEqual([second.id]);
      await expectReplicaEqualsServer(t, hiveId);
    });
  });

  describe("one open placement per hive", () => {
    for (const order of ["to B first", "to C first"] as const) {
      it(`leaves one open placement, the one at hive.apiary_id (${order})`, async () => {
        const state = await hiveAtA(`Moves, ${order}`);
        const now = Date.now();
        const dateB = iso(now + 1_000);
        const dateC = iso(now + 2_000);
        const base = await clockBase(t);
        // The move to B is stamped later (it wins hive.apiary_id) but dated earlier.
        const toB = relocateHive(
          offlineDevice("dev-m1", base + 200),
          state,
          { id: apiaryB, name: "B" },
          {
            id: state.id,
            targetApiaryId: apiaryB,
            date: dateB,
          },
        );
        const toC = relocateHive(
          offlineDevice("dev-m2", base + 100),
          state,
          { id: apiaryC, name: "C" },
          {
            id: state.id,
            targetApiaryId: apiaryC,
            date: dateC,
          },
        );
        const pushes = order === "to B first" ? [toB, toC] : [toC, toB];
        await pushOk(t, pushes[0] ?? []);
        const between = await feedHead(t);
        await pushOk(t, pushes[1] ?? []);

        const hive = (await callOk(t, "HiveService/GetHive", { id: state.id })).hive;
        expect(hive.apiaryId).toBe(apiaryB);
        const open = await openPlacements(t, state.id);
        expect(open.map((p) => p.state.values.apiary_id)).toEqual([apiaryB]);
        const placements = await serverRows(t, "placement", state.id);
        const atC = placements.find((p) => p.state.values.apiary_id === apiaryC);
        // Closed when it started: the kept move to B started earlier.
        expect(atC?.state.values.ended_at).toBe(dateC);

        const repair = (await pullAll(t, between)).changes.filter((c) => c.hlc.includes(":srv-"));
        expect(repair.map((c) => [c.entity, c.entityId, c.scopeId])).toEqual([
          ["placement", atC?.id, apiaryC],
        ]);
        expect(JSON.parse(repair[0]?.payloadJson ?? "{}")).toEqual({ ended_at: dateC });

        await expectReplicaEqualsServer(t, state.id);
      });
    }

    for (const order of ["delete first", "move first"] as const) {
      it(`closes the placement a move opened on a hive deleted meanwhile, when it was deleted (${order})`, async () => {
        const state = await hiveAtA(`Deleted, ${order}`);
        // Moved right after the hive was created; deleted (stamped) a little later.
        const moved = iso(Date.parse(state.openPlacements[0]?.startedAt ?? "") + 1);
        const base = await clockBase(t);
        const toB = relocateHive(
          offlineDevice("dev-d1", base + 100),
          state,
          { id: apiaryB, name: "B" },
          {
            id: state.id,
            targetApiaryId: apiaryB,
            date: moved,
          },
        );
        const deleted: Change[] = deleteHive(offlineDevice("dev-d2", base + 300), state, state.id);
        const deleteStamp = deleted.find((c) => c.entity === "hive")?.hlc as Hlc;
        const pushes = order === "delete first" ? [deleted, toB] : [toB, deleted];
        await pushOk(t, pushes[0] ?? []);
        await pushOk(t, pushes[1] ?? []);

        expect(await openPlacements(t, state.id)).toEqual([]);
        const atB = (await serverRows(t, "placement", state.id)).find(
          (p) => p.state.values.apiary_id === apiaryB,
        );
        expect(atB?.state.values.ended_at).toBe(iso(hlcMs(deleteStamp)));
        const r = await t.call("HiveService/GetHive", { id: state.id });
        expect(r.status).toBe(404);
        await expectReplicaEqualsServer(t, state.id);
      });
    }
  });
  describe("no open task of a deleted hive", () => {
    it("DeleteHive tombstones the hive's open tasks; done ones stay", async () => {
      const hiveId = await newHive(t, apiaryA, "Tasks, RPC");
      const open = (await callOk(t, "TaskService/CreateTask", { title: "Feed", hiveId })).task;
      const done = (await callOk(t, "TaskService/CreateTask", { title: "Check", hiveId })).task;
      await callOk(t, "TaskService/SetTaskDone", { id: done.id, done: true });
      await callOk(t, "HiveService/DeleteHive", { id: hiveId });
      expect((await t.call("TaskService/GetTask", { id: open.id })).status).toBe(404);
      const kept = (await callOk(t, "TaskService/GetTask", { id: done.id })).task;
      expect(kept.done).toBe(true);
    });

    for (const order of ["delete first", "task first"] as const) {
      it(`tombstones a task created offline for a hive deleted meanwhile (${order})`, async () => {
        const state = await hiveAtA(`Tasks, ${order}`);
        const base = await clockBase(t);
        const task = createTask(
          offlineDevice("dev-t1", base + 100),
          { hive: { id: state.id, apiaryId: apiaryA }, apiaryExists: false },
          { title: "Feed", hiveId: state.id, apiaryId: "", priority: TaskPriority.NORMAL },
        );
        const deleted = deleteHive(offlineDevice("dev-t2", base + 50), state, state.id);
        const pushes = order === "delete first" ? [deleted, task.changes] : [task.changes, deleted];
        await pushOk(t, pushes[0] ?? []);
        const between = await feedHead(t);
        await pushOk(t, pushes[1] ?? []);
        expect((await t.call("TaskService/GetTask", { id: task.id })).status).toBe(404);
        const repair = (await pullAll(t, between)).changes.filter((c) => c.hlc.includes(":srv-"));
        expect(repair.map((c) => [c.entity, c.entityId, c.op])).toEqual([
          ["task", task.id, "CHANGE_OP_DELETE"],
        ]);
        const replica = await replicaOfFeed(t);
        expect(replica.state(rowKey("task", task.id))?.deleted).toBe(true);
      });
    }
  });

  describe("no live hive in a deleted apiary", () => {
    /** An apiary of its own (deleted by the test) and the state a device deletes it from. */
    const emptyApiary = async (name: string) => ({ id: await newApiary(t, name), liveHives: 0 });

    async function expectHeld(hiveId: string, deletedApiary: string, name: string) {
      const holding = holdingApiaryId(deletedApiary);
      const hive = (await callOk(t, "HiveService/GetHive", { id: hiveId })).hive;
      expect(hive.apiaryId).toBe(holding);
      const apiary = (await callOk(t, "ApiaryService/GetApiary", { id: holding })).apiary;
      expect(apiary.name).toBe(`${name} (restored)`);
      const open = await openPlacements(t, hiveId);
      expect(open.map((p) => p.state.values.apiary_id)).toEqual([holding]);
      const events = await callOk(t, "EventService/ListEvents", { hiveId });
      const moved = events.events.find(
        (e: { type: string; apiaryId: string }) =>
          e.type === "EVENT_TYPE_MOVED" && e.apiaryId === holding,
      );
      expect(moved, "MOVED event to the holding apiary").toBeDefined();
      await expectReplicaEqualsServer(t, hiveId);
    }

    for (const order of ["delete first", "hive first"] as const) {
      it(`moves a hive created offline in an apiary deleted meanwhile to its holding apiary (${order})`, async () => {
        const x = await emptyApiary(`Gone ${order}`);
        const base = await clockBase(t);
        const created = createHive(
          offlineDevice("dev-c1", base + 100),
          { id: x.id },
          {
            apiaryId: x.id,
            name: "Offline",
            type: HiveType.UNSPECIFIED,
            boxes: 0,
            colonyOrigin: "",
            note: "",
            qrCode: "",
            photo: "",
            date: new Date(base + 100).toISOString(),
          },
        );
        const deleted = deleteApiary(offlineDevice("dev-c2", base + 200), x, x.id);
        const pushes =
          order === "delete first" ? [deleted, created.changes] : [created.changes, deleted];
        await pushOk(t, pushes[0] ?? []);
        await pushOk(t, pushes[1] ?? []);
        await expectHeld(created.id, x.id, `Gone ${order}`);
        // Pushing both again changes nothing and repairs nothing.
        const end = await feedHead(t);
        await pushOk(t, created.changes);
        await pushOk(t, deleted);
        expect(await feedHead(t)).toBe(end);
      });
    }

    it("moves a hive relocated offline into an apiary deleted meanwhile; a second hive joins the same holding apiary", async () => {
      const x = await emptyApiary("Moor");
      const first = await hiveAtA("Into Moor 1");
      const second = await hiveAtA("Into Moor 2");
      const base = await clockBase(t);
      const device = offlineDevice("dev-r1", base + 100);
      const target = { id: x.id, name: "Moor" };
      const moves = [first, second].map((s) =>
        relocateHive(device, s, target, { id: s.id, targetApiaryId: x.id, date: iso(Date.now()) }),
      );
      await pushOk(t, deleteApiary(offlineDevice("dev-r2", base + 50), x, x.id));
      await pushOk(t, moves[0] ?? []);
      await pushOk(t, moves[1] ?? []);
      await expectHeld(first.id, x.id, "Moor");
      await expectHeld(second.id, x.id, "Moor");
    });

    it("moves the hives of a holding apiary deleted in turn to its own holding apiary", async () => {
      const x = await emptyApiary("Fen");
      const state = await hiveAtA("Into Fen");
      const base = await clockBase(t);
      const move = relocateHive(
        offlineDevice("dev-f1", base + 100),
        state,
        { id: x.id, name: "Fen" },
        {
          id: state.id,
          targetApiaryId: x.id,
          date: iso(Date.now()),
        },
      );
      await pushOk(t, deleteApiary(offlineDevice("dev-f2", base + 50), x, x.id));
      await pushOk(t, move);
      const held = holdingApiaryId(x.id);
      const base2 = await clockBase(t);
      const heldState = { id: held, liveHives: 0 };
      await pushOk(t, deleteApiary(offlineDevice("dev-f3", base2 + 50), heldState, held));
      await expectHeld(state.id, held, "Fen");
    });
  });
});
