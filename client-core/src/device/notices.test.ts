import "fake-indexeddb/auto";
import { Dexie } from "dexie";
import { afterEach, describe, expect, it } from "vitest";
import type { Change } from "../core/change.ts";
import { EventType } from "../core/commands/event.ts";
import type { EntityName } from "../core/entities.ts";
import { formatHlc, type Hlc } from "../core/hlc.ts";
import type { Values } from "../core/merge.ts";
import { deviceRow } from "./dexie-store.ts";
import { conflictNotices, isOwnStamp, listNotices, putNotices } from "./notices.ts";
import { entityTable, openReplicaDb, type ReplicaDb, storesV2 } from "./replica-db.ts";
import { applyPulled, metaKeys } from "./replica-sync.ts";

const node = "d0123456789abcdef";
const mine = (ms: number) => formatHlc({ ms, counter: 0, node: `${node}-tab001` });
const theirs = (ms: number) => formatHlc({ ms, counter: 0, node: "dother-xyz" });
const caughtUp = Date.parse("2026-05-10T00:00:00.000Z");
const before = caughtUp - 60_000;
const after = caughtUp + 60_000;
const later = caughtUp + 120_000;

let n = 0;
let db: ReplicaDb;
async function replica(): Promise<ReplicaDb> {
  n += 1;
  db = openReplicaDb(`notices-${n}`);
  await db.open();
  await db.meta.bulkPut([
    { key: metaKeys.node, value: node },
    { key: metaKeys.caughtUpMs, value: caughtUp },
  ]);
  return db;
}
afterEach(async () => {
  db?.close();
  await Dexie.delete(`notices-${n}`);
});

/** Stores a row whose columns were all stamped by `hlc`; `pending` keeps a base (outbox). */
async function put(entity: EntityName, id: string, values: Values, hlc: Hlc, pending = false) {
  const clock = Object.fromEntries(Object.keys(values).map((c) => [c, hlc]));
  const state = { values, clock, deleted: false, scopeId: "a1" };
  await entityTable(db, entity).put(deviceRow(entity, id, state, pending ? null : undefined));
}

const del = (entity: EntityName, id: string, hlc: Hlc): Change => ({
  entity,
  entityId: id,
  scopeId: "a1",
  op: "delete",
  payload: {},
  hlc,
  authorId: "u2",
});

describe("notices of pulled changes", () => {
  it("tells a stamp of this replica (any tab) from another's", () => {
    expect(isOwnStamp(mine(1), node)).toBe(true);
    expect(isOwnStamp(formatHlc({ ms: 1, counter: 0, node }), node)).toBe(true);
    expect(isOwnStamp(theirs(1), node)).toBe(false);
    expect(isOwnStamp(formatHlc({ ms: 1, counter: 0, node: `${node}x-tab` }), node)).toBe(false);
  });

  it("notes a record the user edited since the last sync that another device deleted", async () => {
    await replica();
    await put("hive", "h1", { apiary_id: "a1", name: "Linden" }, mine(after));
    await put("hive", "h2", { apiary_id: "a1", name: "Old" }, mine(before));
    await put("hive", "h3", { apiary_id: "a1", name: "Pending" }, theirs(before), true);
    await applyPulled(
      db,
      [
        del("hive", "h1", theirs(later)),
        del("hive", "h2", theirs(later)),
        del("hive", "h3", theirs(later)),
      ],
      "c1",
    );
    const notices = await listNotices(db);
    expect(notices.map((x) => [x.key, x.kind])).toEqual([
      ["hive/h1", "deleted"],
      ["hive/h3", "deleted"],
    ]);
    expect(notices[0]).toMatchObject({
      record: { entity: "hive", id: "h1", label: "Linden" },
      mine: { apiary_id: "a1", name: "Linden" },
      wonAt: new Date(later).toISOString(),
    });
  });

  it("notes nothing for the replica's own delete", async () => {
    await replica();
    await put("hive", "h1", { apiary_id: "a1", name: "Linden" }, mine(after));
    await applyPulled(db, [del("hive", "h1", mine(later))], "c1");
    expect(await listNotices(db)).toEqual([]);
  });

  it("counts a photo the user added since the last sync (an OR-set add has no column stamp)", async () => {
    await replica();
    await put("hive", "h1", { apiary_id: "a1", name: "Linden" }, theirs(before));
    const photos = (tag: Hlc) => ({
      adds: [{ tag, value: "data:image/png;base64,AAAA" }],
      removed: [],
    });
    const values = { hive_id: "h1", date: "2026-05-09T08:00:00.000Z" };
    for (const [id, tag] of [
      ["i1", mine(after)],
      ["i2", mine(before)],
      ["i3", theirs(after)],
    ] as const) {
      await put("inspection", id, values, theirs(before));
      const row = await entityTable(db, "inspection").get(id);
      if (row)
        await entityTable(db, "inspection").put({
          ...row,
          values: { ...row.values, photo_keys: photos(tag) },
        });
    }
    await applyPulled(db, [del("hive", "h1", theirs(later))], "c1");
    const notices = await listNotices(db);
    expect(notices.map((x) => [x.key, x.kind])).toEqual([["inspection/i1", "orphaned"]]);
    expect(notices[0]?.mine).toEqual({ photo_keys: ["data:image/png;base64,AAAA"] });
  });

  it("notes the user's records of a hive deleted elsewhere, naming the hive", async () => {
    await replica();
    await put("hive", "h1", { apiary_id: "a1", name: "Linden" }, theirs(before));
    await put(
      "inspection",
      "i1",
      { hive_id: "h1", apiary_id: "a1", date: "2026-05-09T08:00:00.000Z" },
      mine(after),
      true,
    );
    await put("task", "t1", { hive_id: "h1", title: "Feed" }, mine(after));
    await put(
      "treatment",
      "x1",
      { hive_id: "h1", product: "Oxalic", date: "2026-05-01T00:00:00.000Z" },
      theirs(before),
    );
    await applyPulled(db, [del("hive", "h1", theirs(later))], "c1");
    const notices = await listNotices(db);
    expect(notices.map((x) => [x.key, x.kind]).sort()).toEqual([
      ["inspection/i1", "orphaned"],
      ["task/t1", "orphaned"],
    ]);
    expect(notices.find((x) => x.key === "inspection/i1")).toMatchObject({
      record: { entity: "inspection", date: "2026-05-09T08:00:00.000Z", hiveId: "h1" },
      cause: { entity: "hive", id: "h1", label: "Linden" },
    });
  });

  it("notes a hive the server's repair moved out of a deleted apiary, for a device that wrote it", async () => {
    await replica();
    await put("apiary", "a1", { name: "Heath" }, theirs(before));
    await put("hive", "h1", { apiary_id: "a1", name: "Linden" }, mine(before));
    const moved: Change = {
      entity: "event",
      entityId: "e1",
      scopeId: "a2",
      op: "upsert",
      payload: {
        type: EventType.MOVED,
        hive_id: "h1",
        apiary_id: "a2",
        date: "2026-05-10T01:00:00.000Z",
        detail_json: JSON.stringify({ from: "a1", to: "a2", restored: true }),
      },
      hlc: formatHlc({ ms: later, counter: 0, node: "srv-1" }),
      authorId: "u2",
    };
    await applyPulled(db, [moved], "c1");
    expect(await listNotices(db)).toMatchObject([
      {
        key: "hive/h1",
        kind: "moved",
        mine: { apiary_id: "a1" },
        won: { apiary_id: "a2" },
        movedTo: "a2",
        cause: { entity: "apiary", id: "a1", label: "Heath" },
      },
    ]);
  });
});

describe("notices of Push conflicts", () => {
  it("keeps what the user wrote and fills in what won when it arrives; dismissing removes it", async () => {
    await replica();
    await put("hive", "h1", { apiary_id: "a1", name: "Linden", note: "mine" }, mine(after));
    const pushed: Change = {
      entity: "hive",
      entityId: "h1",
      scopeId: "a1",
      op: "upsert",
      payload: { note: "mine" },
      hlc: mine(after),
      authorId: "u1",
    };
    const winning = theirs(later);
    const notices = await conflictNotices(
      db,
      [pushed],
      [{ entity: "hive", entityId: "h1", columns: ["note"], winningHlc: winning }],
      "2026-05-10T00:05:00.000Z",
    );
    await db.transaction("rw", db.notices, (tx) => putNotices(tx, notices));
    expect(await listNotices(db)).toMatchObject([
      { key: "hive/h1", kind: "overwritten", mine: { note: "mine" }, won: {} },
    ]);
    await applyPulled(
      db,
      [{ ...pushed, payload: { note: "theirs" }, hlc: winning, authorId: "u2" }],
      "c1",
    );
    const [notice] = await listNotices(db);
    expect(notice).toMatchObject({ mine: { note: "mine" }, won: { note: "theirs" } });
    await db.notices.delete("hive/h1");
    expect(await listNotices(db)).toEqual([]);
  });
});

describe("Replica schema version 3", () => {
  it("upgrades a version 2 replica in place: its rows stay, and notices can be kept", async () => {
    const name = "upgrade-v2";
    const v2 = new Dexie(name);
    v2.version(2).stores(storesV2());
    await v2.open();
    await v2.table("apiaries").put({
      id: "a1",
      values: { name: "Heath" },
      clock: {},
      deleted: false,
      scopeId: "a1",
      complete: 1,
    });
    v2.close();
    const upgraded = openReplicaDb(name);
    await upgraded.open();
    try {
      expect((await upgraded.table("apiaries").get("a1"))?.values).toEqual({ name: "Heath" });
      expect(await listNotices(upgraded)).toEqual([]);
    } finally {
      upgraded.close();
      await Dexie.delete(name);
    }
  });
});
