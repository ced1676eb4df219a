/**
 * SyncService.Pull's page limits (DESIGN.md §4): default 500, capped at 5000;
 * and full pages read the same in binary (written by hand, pull-encoding.ts)
 * and JSON.
 */
import { createApiary } from "@hivekeep/client-core/core";
import { SyncService } from "@hivekeep/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedChanges, seedContext } from "../support/command-seed.ts";
import { databaseKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const rows = 5_010;

describe.each(databaseKinds)("Pull limits on %s", (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind);
    const ctx = seedContext();
    const changes = Array.from(
      { length: rows },
      (_, i) => createApiary(ctx, { name: `A${i}`, address: "", lat: 0, lng: 0 }).changes,
    ).flat();
    await seedChanges(t, changes);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("returns 500 changes by default, with hasMore", async () => {
    const r = (await t.call("SyncService/Pull", { cursor: "" })).body;
    expect(r.changes).toHaveLength(500);
    expect(r.hasMore).toBe(true);
    expect(r.nextCursor).toBe("500");
  });

  it("says where the feed ends (headCursor) beside the contract's fields, in JSON and binary", async () => {
    const r = (await t.call("SyncService/Pull", { cursor: "500" })).body;
    expect(r.headCursor).toBe(String(rows));
    const binary = await t.client(SyncService).pull({ cursor: "", limit: 10 });
    expect(binary.headCursor).toBe(String(rows));
    expect(binary.nextCursor).toBe("10");
  });

  it("caps a larger limit at 5000 instead of refusing it, and the rest follows", async () => {
    const first = (await t.call("SyncService/Pull", { cursor: "", limit: 100_000 })).body;
    expect(first.changes).toHaveLength(5_000);
    expect(first.hasMore).toBe(true);
    const rest = (await t.call("SyncService/Pull", { cursor: first.nextCursor, limit: 100_000 }))
      .body;
    expect(rest.changes).toHaveLength(rows - 5_000);
    expect(rest.hasMore).toBeUndefined();
    expect(rest.nextCursor).toBe(String(rows));
  });

  it("rejects a negative limit with invalid_argument", async () => {
    const r = await t.call("SyncService/Pull", { cursor: "", limit: -1 });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("invalid_argument");
  });

  it("gives binary and JSON clients the same changes, non-ASCII text and deletes included", async () => {
    const name = "Bienenstöcke ✓ 🐝 «Süd»";
    const created = await t.call("ApiaryService/CreateApiary", { name, lat: 1, lng: 2 });
    const id = created.body.apiary.id as string;
    expect((await t.call("ApiaryService/DeleteApiary", { id })).status).toBe(200);
    const binary = t.client(SyncService);
    const json = t.client(SyncService, { json: true });
    let cursor = "";
    let pages = 0;
    for (;;) {
      const [b, j] = await Promise.all([
        binary.pull({ cursor, limit: 5000 }),
        json.pull({ cursor, limit: 5000 }),
      ]);
      expect({ ...b, serverTime: undefined }).toEqual({ ...j, serverTime: undefined });
      pages += 1;
      if (!b.hasMore) {
        const last = b.changes.slice(-2);
        expect(last.map((c) => [c.entityId, c.op])).toEqual([
          [id, 1],
          [id, 2],
        ]);
        expect(JSON.parse(last[0]?.payloadJson ?? "{}").name).toBe(name);
        expect(last[1]?.payloadJson).toBe("{}");
        break;
      }
      cursor = b.nextCursor;
    }
    expect(pages).toBe(2);
  });
});
