/**
 * The readings window on real devices against the real server (core/readings-window.ts,
 * device/readings-eviction.ts; issue 29), as a fast-check property: scale readings and visits
 * dated up to three weeks back, corrections that move a reading's date, turn a reading into a
 * visit and a visit back into a reading, photos, deletes, written on the server (a scale, a
 * desktop) and on two windowed devices, while the days go by and the devices sync in a random
 * schedule. After everyone has synced, each device holds exactly the server's rows but the
 * readings dated before the window's cutoff (and their INSPECTION events): every row it holds
 * equals the server's (values, stamps, tombstone, scope), and it holds every row it should.
 * `HIVEKEEP_PROPERTY_SEED` (and `_PATH`) replay a failing run.
 */
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import { type HivekeepClient, pointOfRow, readingPointsTable } from "@hivekeep/client-core";
import {
  entities,
  entityNames,
  eventInspectionId,
  outOfWindow,
  readingsCutoffMs,
} from "@hivekeep/client-core/core";
import type { Inspection } from "@hivekeep/proto";
import { SyncService } from "@hivekeep/proto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowStateFromDb } from "../../server/src/store/row-state.ts";
import { databaseKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { byPhotoRef, Network, openDevice, type Services, serverServices } from "./harness.ts";

const seed = process.env.HIVEKEEP_PROPERTY_SEED;
const replay = seed
  ? {
      seed: Number(seed),
      ...(process.env.HIVEKEEP_PROPERTY_PATH ? { path: process.env.HIVEKEEP_PROPERTY_PATH } : {}),
    }
  : {};

const day = 86_400_000;
/** A short window, so that a few days going by move readings out of it. */
const readingDays = 5;
const photos = ["data:image/png;base64,AAAA", "data:image/png;base64,BBBB"];

type Who = 0 | 1 | 2; // the server, device A, device B
const whoArb = fc.constantFrom<Who>(0, 1, 2);
const opArb = fc.oneof(
  fc.record({ what: fc.constant("reading" as const), who: whoArb, daysAgo: fc.nat(20) }),
  fc.record({ what: fc.constant("visit" as const), who: whoArb, daysAgo: fc.nat(20) }),
  fc.record({
    what: fc.constantFrom("toVisit", "toReading", "moveDate", "weigh", "delete", "photo"),
    who: whoArb,
    pick: fc.nat(),
    daysAgo: fc.nat(20),
  }),
  fc.record({ what: fc.constant("days" as const), days: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ what: fc.constant("sync" as const), device: fc.constantFrom(0, 1) }),
);

describe.each(databaseKinds)("readings window on devices on %s", (kind) => {
  let t: TestServer;
  let nowMs = Date.parse("2026-06-01T10:00:00Z");
  const now = () => nowMs;
  let hiveId = "";
  beforeAll(async () => {
    t = await startTestServer(kind, {}, { now });
    const s = serverServices(t);
    const apiaryId = (await s.apiaries.createApiary({ name: "Window" })).apiary?.id ?? "";
    hiveId = (await s.hives.createHive({ apiaryId, name: "Scale hive" })).hive?.id ?? "";
  });
  afterAll(async () => {
    await t?.stop();
  });

  /** The server's rows of every entity, as merge states with scopes, by entity then id. */
  async function serverRows() {
    const out = new Map<string, Map<string, unknown>>();
    for (const name of entityNames) {
      const spec = entities[name];
      const rows = await t.server.db.query<Record<string, unknown>>(`select * from ${spec.table}`);
      out.set(
        name,
        new Map(
          rows.map((r) => {
            const s = rowStateFromDb(r, spec);
            return [String(r.id), { scopeId: r.scope_id, ...s }];
          }),
        ),
      );
    }
    return out;
  }

  /** Each device holds exactly the server's rows but the readings before its cutoff. */
  async function expectWindowed(c: HivekeepClient) {
    const cutoff = readingsCutoffMs(nowMs, readingDays);
    const server = await serverRows();
    const excluded = new Set<string>();
    for (const [id, row] of server.get("inspection") ?? []) {
      if (outOfWindow((row as { values: Record<string, unknown> }).values, cutoff)) {
        excluded.add(id);
      }
    }
    for (const name of entityNames) {
      const want = new Map(
        [...(server.get(name) ?? [])].filter(([id, row]) => {
          if (name === "inspection") return !excluded.has(id);
          if (name === "event") {
            const ref = eventInspectionId((row as { values: Record<string, unknown> }).values);
            return ref === undefined || !excluded.has(ref);
          }
          return true;
        }),
      );
      const held = await c.db.table(entities[name].table).toArray();
      const got = new Map(
        held.map((r) => [
          r.id,
          { scopeId: r.scopeId, values: r.values, clock: r.clock, deleted: r.deleted },
        ]),
      );
      expect(byPhotoRef(Object.fromEntries(got)), `${name} rows`).toEqual(
        byPhotoRef(Object.fromEntries(want)),
      );
    }
    // The reading points (device/reading-points.ts) are the rule's over the rows held, whatever
    // merged, was let go or came back.
    const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
    const rows = await c.db.table(entities.inspection.table).toArray();
    const points = await c.db.table(readingPointsTable).toArray();
    expect(points.sort(byId), "reading points").toEqual(
      rows.flatMap((r) => pointOfRow(r) ?? []).sort(byId),
    );
  }

  it("every device holds the server's rows but the readings before the cutoff, whatever happens meanwhile", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 4, maxLength: 30 }), async (ops) => {
        const devices = [
          await openDevice({ net: new Network(t.url), now, readingDays }),
          await openDevice({ net: new Network(t.url), now, readingDays }),
        ];
        try {
          for (const d of devices) await d.sync.syncNow();
          const services = (who: Who): Services =>
            who === 0 ? serverServices(t) : (devices[who - 1] as HivekeepClient);
          const date = (daysAgo: number) => timestampFromMs(nowMs - daysAgo * day - 3_600_000);
          for (const op of ops) {
            if (op.what === "days") {
              nowMs += op.days * day;
              continue;
            }
            if (op.what === "sync") {
              await devices[op.device]?.sync.syncNow();
              continue;
            }
            const s = services(op.who);
            if (op.what === "reading") {
              await s.inspections.createInspection({
                hiveId,
                date: date(op.daysAgo),
                weightKg: 30 + op.daysAgo,
              });
              continue;
            }
            if (op.what === "visit") {
              await s.inspections.createInspection({
                hiveId,
                date: date(op.daysAgo),
                note: "seen",
              });
              continue;
            }
            const list = (await s.inspections.listInspections({ page: { pageSize: 1000 } }))
              .inspections;
            const picked = list[op.pick % Math.max(list.length, 1)];
            if (picked === undefined) continue;
            await edit(s, picked, op.what, date(op.daysAgo));
          }
          nowMs += 60_000;
          for (let round = 0; round < 2; round++) for (const d of devices) await d.sync.syncNow();
          for (const d of devices) await expectWindowed(d);
        } finally {
          for (const d of devices) await d.close();
        }
      }),
      { numRuns: Number(process.env.HIVEKEEP_PROPERTY_RUNS ?? 30), ...replay },
    );
  }, 240_000);

  it("a windowed Pull answers the cutoff; the contract's Pull every change; a negative window is invalid", async () => {
    const sync = t.client(SyncService);
    const windowed = await sync.pull({ cursor: "", limit: 5000, readingDays: 30 });
    expect(windowed.readingsCutoff).toEqual(timestampFromMs(readingsCutoffMs(nowMs, 30)));
    const plain = await sync.pull({ cursor: "", limit: 5000 });
    expect(plain.readingsCutoff).toBeUndefined();
    await expect(sync.pull({ cursor: "", readingDays: -1 })).rejects.toMatchObject({
      code: Code.InvalidArgument,
      rawMessage: expect.stringContaining("readingDays -1"),
    });
  });
});

async function edit(
  s: Services,
  inspection: Inspection,
  what: "toVisit" | "toReading" | "moveDate" | "weigh" | "delete" | "photo",
  date: ReturnType<typeof timestampFromMs>,
) {
  const { inspections } = s;
  switch (what) {
    case "delete":
      await inspections.deleteInspection({ id: inspection.id });
      return;
    case "photo":
      await inspections.addInspectionPhoto({
        inspectionId: inspection.id,
        photo: photos[inspection.photoKeys.length % photos.length] ?? "",
      });
      return;
    case "toVisit":
      await inspections.updateInspection({ inspection: { ...inspection, note: "looked in" } });
      return;
    case "toReading":
      await inspections.updateInspection({
        inspection: { ...inspection, note: "", weightKg: inspection.weightKg || 31 },
      });
      return;
    case "moveDate":
      await inspections.updateInspection({ inspection: { ...inspection, date } });
      return;
    case "weigh":
      await inspections.updateInspection({
        inspection: { ...inspection, weightKg: inspection.weightKg + 0.5 },
      });
      return;
  }
}
