/**
 * The no-skip guarantee (DESIGN.md §4): within a tenant, feed order equals
 * commit order, so a device that pulls while others write never passes over a
 * change that commits later. Several writers (service RPCs and device Pushes)
 * run concurrently while one reader pulls in small pages; on Postgres the
 * server's connection pool makes the writers' transactions really overlap.
 */
import { randomUUID } from "node:crypto";
import { SyncService } from "@hivekeep/proto";
import { describe, expect, it } from "vitest";
import { databaseKinds } from "../support/databases.ts";
import { callOk, feedHead, pullAll, useTestServer } from "../support/fixtures.ts";
import { apiaryUpsert, device, pushOk, sleep, upsert } from "../support/sync.ts";

const writers = 4;
const writesPerWriter = 40;
const pushSize = 5;
const pageLimit = 7;

/** What identifies one feed row for the comparison. */
const key = (c: { entity: string; entityId: string; hlc: string }) =>
  `${c.entity}/${c.entityId}@${c.hlc}`;

/** The server's clock: a morning that goes on as time does, so no run crosses midnight (the readings window's cutoff stays one). */
const t0 = Date.now();
const now = () => Date.parse("2026-06-01T08:00:00Z") + (Date.now() - t0);

describe.each(databaseKinds)("No-skip feed on %s", (kind) => {
  const t = useTestServer(kind);

  it("lets a reader pulling during concurrent RPCs and Pushes see every change exactly once, in feed order", async () => {
    const start = await feedHead(t);
    /** Apiary ids answered by CreateApiary (the server stamps those). */
    const rpcApiaries: string[] = [];
    /** Each pushed batch's change keys, in batch order. */
    const pushedBatches: string[][] = [];

    async function writer(w: number): Promise<void> {
      const dev = device(`writer-${w}`);
      for (let i = 0; i < writesPerWriter; i++) {
        await sleep(Math.floor(Math.random() * 4));
        if (Math.random() < 0.5) {
          const body = await callOk(t, "ApiaryService/CreateApiary", { name: `W${w} RPC ${i}` });
          rpcApiaries.push(body.apiary.id);
        } else {
          const apiaryId = randomUUID();
          const hiveId = randomUUID();
          const batch = [
            apiaryUpsert(apiaryId, dev.stamp(), { name: `W${w} push ${i}` }),
            upsert("hive", hiveId, apiaryId, dev.stamp(), { apiary_id: apiaryId, name: "H1" }),
            upsert("hive", randomUUID(), apiaryId, dev.stamp(), {
              apiary_id: apiaryId,
              name: "H2",
            }),
            apiaryUpsert(apiaryId, dev.stamp(), { address: `Lane ${i}` }),
            upsert("hive", hiveId, apiaryId, dev.stamp(), { note: "Checked" }),
          ];
          expect(batch).toHaveLength(pushSize);
          await pushOk(t, batch);
          pushedBatches.push(batch.map(key));
        }
      }
    }

    let writing = true;
    const seen: string[] = [];
    let pagesDuringWrites = 0;
    async function reader(): Promise<void> {
      const sync = t.client(SyncService);
      let cursor = start;
      for (;;) {
        // A pull that starts after the writers finished must bring the reader to the end.
        const last = !writing;
        const page = await sync.pull({ cursor, limit: pageLimit });
        expect(page.changes.length).toBeLessThanOrEqual(pageLimit);
        seen.push(...page.changes.map(key));
        if (writing && page.changes.length > 0) pagesDuringWrites += 1;
        cursor = page.nextCursor;
        if (last && !page.hasMore) return;
        if (!page.hasMore) await sleep(1);
      }
    }

    await Promise.all([
      Promise.all(Array.from({ length: writers }, (_, w) => writer(w))).finally(() => {
        writing = false;
      }),
      reader(),
    ]);

    // The reader really read while the writers wrote.
    expect(pagesDuringWrites).toBeGreaterThan(0);

    // What the reader saw, page by page, is the feed as it stands: no gap, no duplicate.
    const feed = (await pullAll(t, start)).changes;
    expect(seen).toEqual(feed.map(key));
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength(rpcApiaries.length + pushSize * pushedBatches.length);

    // Every write is there once: each CreateApiary's apiary, each pushed change's HLC.
    const count = (k: string) => seen.filter((s) => s === k).length;
    const apiaryRows = feed.filter((c) => c.entity === "apiary").map((c) => c.entityId);
    for (const id of rpcApiaries) expect(apiaryRows.filter((a) => a === id)).toHaveLength(1);
    for (const batch of pushedBatches) {
      for (const k of batch) expect(count(k), k).toBe(1);
      // A batch commits as one transaction: its changes are adjacent, in batch order.
      const at = seen.indexOf(batch[0] as string);
      expect(seen.slice(at, at + pushSize)).toEqual(batch);
    }
  });
});

describe.each(databaseKinds)("No-skip windowed feed on %s", (kind) => {
  const t = useTestServer(kind, {}, { now });

  it("lets a windowed reader (issue 29) see every change but the held ones exactly once, in feed order, while scales and people write", async () => {
    const start = await feedHead(t);
    const apiary = await callOk(t, "ApiaryService/CreateApiary", { name: "Window" });
    const hive = await callOk(t, "HiveService/CreateHive", {
      apiaryId: apiary.apiary.id,
      name: "Scale",
    });
    const hiveId: string = hive.hive.id;
    const day = 86_400_000;
    const ids: string[] = [];

    async function writer(w: number): Promise<void> {
      for (let i = 0; i < writesPerWriter / 2; i++) {
        await sleep(Math.floor(Math.random() * 4));
        const daysAgo = Math.floor(Math.random() * 60);
        const date = new Date(now() - 60_000 - daysAgo * day).toISOString();
        const kind = Math.random();
        if (kind < 0.5) {
          await callOk(t, "InspectionService/CreateInspection", { hiveId, date, weightKg: 40 });
        } else if (kind < 0.7) {
          const made = await callOk(t, "InspectionService/CreateInspection", {
            hiveId,
            date,
            note: `W${w} looked in`,
          });
          ids.push(made.inspection.id);
        } else if (ids.length > 0) {
          // A visit made a reading again, or a reading corrected: its state follows if it may.
          const id = ids[Math.floor(Math.random() * ids.length)] as string;
          await callOk(t, "InspectionService/UpdateInspection", {
            inspection: { id, hiveId, date, weightKg: 41 },
          });
        }
      }
    }

    let writing = true;
    const seen: string[] = [];
    let cutoff = "";
    async function reader(): Promise<void> {
      const sync = t.client(SyncService);
      let cursor = start;
      for (;;) {
        const last = !writing;
        const page = await sync.pull({ cursor, limit: pageLimit, readingDays: 30 });
        // Changes of the feed carry their author; a row's state after them carries none.
        seen.push(...page.changes.filter((c) => c.authorId !== "").map(key));
        cutoff = page.readingsCutoff
          ? new Date(Number(page.readingsCutoff.seconds) * 1000).toISOString()
          : "";
        cursor = page.nextCursor;
        if (last && !page.hasMore) return;
        if (!page.hasMore) await sleep(1);
      }
    }

    await Promise.all([
      Promise.all(Array.from({ length: writers }, (_, w) => writer(w))).finally(() => {
        writing = false;
      }),
      reader(),
    ]);

    // The feed as it stands but its rows held until before the cutoff (written at write time).
    const held = new Set(
      (
        await t.server.db.query<{ entity: string; entity_id: string; hlc: string }>(
          "select entity, entity_id, hlc from changes where held_until < $1",
          [cutoff],
        )
      ).map((r) => key({ entity: r.entity, entityId: r.entity_id, hlc: r.hlc })),
    );
    expect(held.size).toBeGreaterThan(0);
    const feed = (await pullAll(t, start)).changes.map(key).filter((k) => !held.has(k));
    expect(seen).toEqual(feed);
  });
});
