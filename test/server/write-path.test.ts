/** The one write path (applyChanges under the tenant lock) on both databases. */
import type { Change, Hlc } from "@hivekeep/client-core/core";
import { decodePullResponse } from "@hivekeep/client-core/protocol";
import { type Db, migrate, openPostgres } from "@hivekeep/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HeadColumns, readFeed, readWirePage } from "../../server/src/store/feed.ts";
import { unpackClock } from "../../server/src/store/stored-clock.ts";
import { writeTenant } from "../../server/src/store/tenant-write.ts";
import {
  ensureLocalTenant,
  localOrganizationId as org,
  localUserId as user,
} from "../../server/src/store/tenants.ts";
import {
  createScratchDatabase,
  databaseKinds,
  type ScratchDatabase,
} from "../support/databases.ts";
import { protoChangeHead } from "../support/feed-wire.ts";
import { templatePglite } from "../support/pglite-template.ts";

const hlc = (ms: number, node = "dev-a"): Hlc =>
  `${String(ms).padStart(15, "0")}:00000:${node}` as Hlc;

const change = (over: Partial<Change> & Pick<Change, "entityId" | "hlc">): Change => ({
  entity: "apiary",
  scopeId: over.entityId,
  op: "upsert",
  payload: {},
  authorId: user,
  ...over,
});

describe.each(databaseKinds)("applyChanges on %s", (kind) => {
  let db: Db;
  let scratch: ScratchDatabase | undefined;
  beforeAll(async () => {
    scratch = kind === "postgres" ? await createScratchDatabase() : undefined;
    db = scratch ? await openPostgres(scratch.url) : await templatePglite();
    await migrate(db);
    await ensureLocalTenant(db);
  });
  afterAll(async () => {
    await db?.close();
    await scratch?.drop();
  });

  const row = async (id: string) =>
    (await db.query("select * from apiaries where organization_id = $1 and id = $2", [org, id]))[0];
  /** The apiaries whose ids start with the two-letter prefix `p`, prefix cut off. */
  const rows = async (p: string) =>
    (
      await db.query(
        `select * from apiaries where organization_id = $1 and id like $2 || '%' order by id`,
        [org, p],
      )
    ).map(({ id, scope_id, organization_id, ...rest }) => ({
      id: String(id).slice(2),
      scope: String(scope_id).slice(2),
      ...rest,
      clock: unpackClock(rest.clock),
    }));
  const head = async () =>
    Number(
      (await db.query("select feed_seq from organizations where id = $1", [org]))[0]?.feed_seq,
    );

  it("stores new rows written with their feed row exactly as rows merged change by change", async () => {
    // One batch: b1 new and touched once (written by the feed statement), b2 new and touched
    // twice, b3 new but deleted right away, b4 partial (incomplete). Then the same changes,
    // one batch each, through the generic path for comparison.
    const batch = (p: string): Change[] => [
      change({
        entityId: `${p}1`,
        hlc: hlc(5000),
        payload: { name: 'Süd «1» "q"', address: "", lat: 1.25, lng: -2, created_at: null },
      }),
      change({ entityId: `${p}2`, hlc: hlc(5001), payload: { name: "Two", address: "A", lat: 0 } }),
      change({ entityId: `${p}2`, hlc: hlc(5002), payload: { lng: 3.5, name: "Two!" } }),
      change({ entityId: `${p}3`, hlc: hlc(5003), payload: { name: "Three", address: "B" } }),
      change({ entityId: `${p}3`, hlc: hlc(5004), op: "delete" }),
      change({ entityId: `${p}4`, hlc: hlc(5005), payload: { address: "Partial" } }),
    ];
    await writeTenant(db, org, (w) => w.apply(batch("fb")));
    for (const c of batch("gb")) await writeTenant(db, org, (w) => w.apply([c]));
    const together = await rows("fb");
    expect(together).toHaveLength(4);
    expect(together).toEqual(await rows("gb"));
    expect(together[0]).toMatchObject({
      name: 'Süd «1» "q"',
      lat: 1.25,
      lng: -2,
      created_at: null,
      complete: true,
      deleted: false,
      clock: {
        name: hlc(5000),
        address: hlc(5000),
        lat: hlc(5000),
        lng: hlc(5000),
        created_at: hlc(5000),
      },
    });
  });

  it("keeps a partial change for an unknown row until its create arrives", async () => {
    const before = await head();
    await writeTenant(db, org, (w) =>
      w.apply([change({ entityId: "a1", hlc: hlc(2000), payload: { address: "Late lane" } })]),
    );
    expect(await row("a1")).toMatchObject({ address: "Late lane", name: null, complete: false });
    await writeTenant(db, org, (w) =>
      w.apply([
        change({ entityId: "a1", hlc: hlc(1000), payload: { name: "Early", address: "Old" } }),
      ]),
    );
    // The create completes the row; its older address loses to the newer one.
    expect(await row("a1")).toMatchObject({ name: "Early", address: "Late lane", complete: true });
    const feed = await readFeed(db, org, user, before, 100);
    expect(feed.map((f) => JSON.parse(f.payloadJson))).toEqual([
      { address: "Late lane" },
      { name: "Early" },
    ]);
  });

  it("writes a batch in chunks exactly as in one statement", async () => {
    // Chunks of 2: c1 created in the first chunk and edited in the third; c2
    // created, then re-sent unchanged in a later chunk (its feed row went out
    // with the first chunk, so its row is written on its own); c3 created
    // and deleted across chunks; c4 once, alone in the last chunk.
    const batch = (p: string): Change[] => [
      change({ entityId: `${p}1`, hlc: hlc(7100), payload: { name: "One", address: "A" } }),
      change({ entityId: `${p}2`, hlc: hlc(7101), payload: { name: "Two", address: "B" } }),
      change({ entityId: `${p}3`, hlc: hlc(7102), payload: { name: "Three", address: "C" } }),
      change({ entityId: `${p}2`, hlc: hlc(7101), payload: { name: "Two", address: "B" } }),
      change({ entityId: `${p}1`, hlc: hlc(7103), payload: { lat: 4.5 } }),
      change({ entityId: `${p}3`, hlc: hlc(7104), op: "delete" }),
      change({ entityId: `${p}4`, hlc: hlc(7105), payload: { name: "Four", address: "D" } }),
    ];
    const before = await head();
    const chunked = await writeTenant(db, org, (w) => w.apply(batch("ck"), { writeChunk: 2 }));
    const whole = await writeTenant(db, org, (w) => w.apply(batch("wh"), { writeChunk: 1000 }));
    expect(chunked.appended).toBe(6);
    expect(whole.appended).toBe(6);
    expect(await head()).toBe(before + 12);
    expect(await rows("ck")).toEqual(await rows("wh"));
    expect(await rows("ck")).toMatchObject([
      { id: "1", name: "One", lat: 4.5, complete: true, deleted: false },
      { id: "2", name: "Two", complete: true },
      { id: "3", deleted: true },
      { id: "4", name: "Four" },
    ]);
    const feed = await readFeed(db, org, user, before, 100);
    expect(feed.map((f) => f.seq)).toEqual(Array.from({ length: 12 }, (_, i) => before + i + 1));
    expect(feed.slice(0, 6).map((f) => f.payloadJson)).toEqual(
      feed.slice(6).map((f) => f.payloadJson),
    );
  });

  it("rolls back the chunks already written when a later change is rejected", async () => {
    const before = await head();
    const batch = [
      change({ entityId: "rb1", hlc: hlc(7200), payload: { name: "One" } }),
      change({ entityId: "rb2", hlc: hlc(7201), payload: { name: "Two" } }),
      change({ entityId: "rb3", hlc: hlc(7202), payload: { name: "Three" } }),
    ];
    const refuseLast = (c: Change, i: number) =>
      c.entityId === "rb3" ? [{ index: i, code: "invalid_argument" as const, reason: "no" }] : [];
    await expect(
      writeTenant(db, org, (w) => w.apply(batch, { writeChunk: 1, check: refuseLast })),
    ).rejects.toMatchObject({ rejections: [{ index: 2, reason: "no" }] });
    expect(await row("rb1")).toBeUndefined();
    expect(await row("rb2")).toBeUndefined();
    expect(await head()).toBe(before);
  });

  it("adds nothing for a re-applied batch and reports lost columns", async () => {
    const batch = [change({ entityId: "a2", hlc: hlc(5000), payload: { name: "Two", lat: 1 } })];
    await writeTenant(db, org, (w) => w.apply(batch));
    const seq = await head();
    const again = await writeTenant(db, org, (w) => w.apply(batch));
    expect(again.appended).toBe(0);
    expect(again.conflicts).toEqual([]);
    expect(await head()).toBe(seq);

    const older = await writeTenant(db, org, (w) =>
      w.apply([
        change({ entityId: "a2", hlc: hlc(4000, "dev-b"), payload: { name: "Old", lat: 1 } }),
      ]),
    );
    expect(older.appended).toBe(0);
    expect(older.conflicts).toEqual([
      { entity: "apiary", entityId: "a2", columns: ["name", "lat"], winningHlc: hlc(5000) },
    ]);
    expect((await row("a2"))?.name).toBe("Two");
  });

  it("stores each feed row's Change bytes but the payload, which the binary Pull sends as they are", async () => {
    const before = await head();
    await writeTenant(db, org, (w) =>
      w.apply(
        [
          change({ entityId: "wb1", hlc: hlc(7300), payload: { name: "Höfe 🐝", lat: 1.5 } }),
          // A payload longer than 16 KiB (a length of three bytes).
          change({ entityId: "wb2", hlc: hlc(7301), payload: { name: "x".repeat(20_000) } }),
          change({ entityId: "wb1", hlc: hlc(7302), op: "delete" }),
          change({ entityId: "wb3", hlc: hlc(7303), payload: { name: "Three" }, authorId: "" }),
        ],
        { writeChunk: 2 },
      ),
    );
    const feed = await readFeed(db, org, user, before, 100);
    expect(feed.map((f) => [f.entityId, f.op, f.authorId])).toEqual([
      ["wb1", 1, user],
      ["wb2", 1, user],
      ["wb1", 2, user],
      ["wb3", 1, ""],
    ]);
    const stored = await db.query<HeadColumns & { change_head: string }>(
      `select entity, entity_id, scope_id, op, hlc, author_id, change_head from changes
       where organization_id = $1 and seq > $2 order by seq`,
      [org, before],
    );
    for (const r of stored) {
      expect(Buffer.from(r.change_head, "base64")).toEqual(Buffer.from(protoChangeHead(r)));
    }
    const page = await readWirePage(db, org, user, before, 100);
    expect(page).toMatchObject({ count: 4, lastSeq: before + 4, hasMore: false });
    expect(decodePullResponse(Buffer.concat(page.chunks)).changes).toEqual(
      feed.map(({ seq, ...f }) => f),
    );
  });

  it("never brings a deleted row back", async () => {
    await writeTenant(db, org, (w) =>
      w.apply([
        change({ entityId: "a3", hlc: hlc(6000), payload: { name: "Three" } }),
        change({ entityId: "a3", hlc: hlc(7000), op: "delete" }),
        change({ entityId: "a3", hlc: hlc(8000), payload: { name: "Edited later" } }),
      ]),
    );
    expect(await row("a3")).toMatchObject({ deleted: true, name: "Edited later" });
    const feed = await readFeed(db, org, user, 0, 1000);
    expect(feed.filter((f) => f.entityId === "a3").map((f) => f.op)).toEqual([1, 2, 1]);
  });

  it("writes nothing when the transaction fails", async () => {
    const seq = await head();
    await expect(
      writeTenant(db, org, async (w) => {
        await w.apply([change({ entityId: "a4", hlc: hlc(9000), payload: { name: "Four" } })]);
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await row("a4")).toBeUndefined();
    expect(await head()).toBe(seq);
  });

  it("numbers the feed densely in commit order under concurrent writers", async () => {
    const start = await head();
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        writeTenant(db, org, (w) =>
          w.apply([
            change({ entityId: `c${i}`, hlc: hlc(10_000 + i), payload: { name: `C${i}` } }),
            change({ entityId: `c${i}`, hlc: hlc(20_000 + i), payload: { address: "x" } }),
          ]),
        ),
      ),
    );
    const feed = await readFeed(db, org, user, start, 1000);
    expect(feed.map((f) => f.seq)).toEqual(Array.from({ length: 16 }, (_, i) => start + i + 1));
    // The two changes of one transaction are adjacent.
    for (let i = 0; i < 16; i += 2) expect(feed[i]?.entityId).toBe(feed[i + 1]?.entityId);
  });
});
