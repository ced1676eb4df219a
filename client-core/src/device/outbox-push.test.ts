/**
 * What the outbox does with each Push outcome (outbox-push.ts), on a fake-indexeddb replica with
 * a scripted push delegate: which batches go out, what leaves the outbox, what is quarantined.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Change } from "../core/change.ts";
import type { SyncChange } from "../protocol/wire.ts";
import { ignoreStamps } from "../testing/ignore-stamps.ts";
import { DeviceClock } from "./device-clock.ts";
import { dexieStore } from "./dexie-store.ts";
import { OutboxPusher } from "./outbox-push.ts";
import type { PushOutcome } from "./push-delegate.ts";
import { openReplicaDb, type ReplicaDb } from "./replica-db.ts";

let n = 0;

describe("OutboxPusher", () => {
  let db: ReplicaDb;
  let clock: DeviceClock;
  /** The entity ids of every Push, in order. */
  let pushes: string[][];
  let answer: (changes: readonly SyncChange[]) => PushOutcome;

  beforeEach(async () => {
    n += 1;
    db = openReplicaDb(`outbox-push-${n}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    await db.open();
    clock = new DeviceClock({ node: "dtest", offsetMs: 0 });
    pushes = [];
    answer = () => ({ kind: "sent", serverTimeMs: undefined });
  });
  afterEach(() => db.close());

  const pusher = (maxBytes = 1 << 20) =>
    new OutboxPusher({
      db,
      clock,
      push: async (changes) => {
        pushes.push(changes.map((c) => c.entityId));
        return answer(changes);
      },
      measureServerTime: async () => {},
      maxBytes,
    });

  /** Local writes of apiaries named by `ids` (a name of `size` characters each). */
  const write = async (ids: string[], size = 100) => {
    const changes: Change[] = ids.map((id) => ({
      entity: "apiary",
      entityId: id,
      scopeId: id,
      op: "upsert",
      payload: { name: id.padEnd(size, ".") },
      hlc: clock.stamp(),
      authorId: "u1",
    }));
    await dexieStore(db, { clock: ignoreStamps }).write((w) => w.apply(changes));
  };
  const outbox = async () =>
    (await db.outbox.orderBy("seq").toArray()).map((e) => e.change.entityId);
  const held = async () =>
    (await db.quarantine.orderBy("seq").toArray()).map((e) => [
      e.change.entityId,
      e.code,
      e.reason,
    ]);
  const ids = (k: number) => Array.from({ length: k }, (_, i) => `a${i}`);
  const error = (code: Code, headers?: HeadersInit) =>
    new ConnectError("refused", code, headers === undefined ? undefined : new Headers(headers));

  it("sends half after too-large, at once, and the budget doubles back after successes", async () => {
    await write(ids(8));
    let refusals = 1;
    const budgets: number[] = [];
    answer = (changes) => {
      budgets.push(p.bytes);
      return changes.length > 4 && refusals-- > 0
        ? { kind: "too-large", error: error(Code.ResourceExhausted) }
        : { kind: "sent", serverTimeMs: undefined };
    };
    // Eight changes of about 200 bytes fit the budget of 2000.
    const p = pusher(2000);
    await p.pushAll();
    expect(pushes.map((b) => b.length)).toEqual([8, 4, 4]);
    expect(await outbox()).toEqual([]);
    const [first, halved, doubled] = budgets;
    expect(first).toBe(2000);
    expect(halved).toBeLessThan(1000);
    expect(doubled).toBe(2 * (halved ?? 0));
    // Doubled again, up to the maximum.
    expect(p.bytes).toBe(2000);
  });

  it("quarantines a single change too large on its own with the server's reason; the rest goes", async () => {
    await write(["small1"]);
    await write(["big"], 10_000);
    await write(["small2"]);
    answer = (changes) =>
      changes.some((c) => c.entityId === "big")
        ? { kind: "too-large", error: error(Code.ResourceExhausted) }
        : { kind: "sent", serverTimeMs: undefined };
    await pusher().pushAll();
    // All three; half (the first alone); twice that again (too large); the big one alone (set
    // aside); the rest.
    expect(pushes).toEqual([
      ["small1", "big", "small2"],
      ["small1"],
      ["big", "small2"],
      ["big"],
      ["small2"],
    ]);
    expect(await outbox()).toEqual([]);
    expect(await held()).toEqual([["big", "resource_exhausted", "refused"]]);
  });

  it("retry-later halves the batch too and fails the push; the next push sends the half", async () => {
    await write(ids(8));
    answer = () => ({ kind: "retry-later", error: error(Code.Unavailable) });
    const p = pusher();
    await expect(p.pushAll()).rejects.toMatchObject({ code: Code.Unavailable });
    expect(pushes.map((b) => b.length)).toEqual([8]);
    answer = () => ({ kind: "sent", serverTimeMs: undefined });
    await p.pushAll();
    expect(pushes.map((b) => b.length)).toEqual([8, 4, 4]);
    // A single change that cannot get through the network is kept, never quarantined.
    await write(["x"]);
    answer = () => ({ kind: "retry-later", error: error(Code.Unavailable) });
    await expect(p.pushAll()).rejects.toMatchObject({ code: Code.Unavailable });
    expect(await outbox()).toEqual(["x"]);
    expect(await held()).toEqual([]);
  });

  it("quarantines exactly the rejected changes and pushes the rest again", async () => {
    await write(ids(4));
    let first = true;
    answer = () => {
      if (!first) return { kind: "sent", serverTimeMs: undefined };
      first = false;
      return {
        kind: "rejected",
        refused: [{ index: 1, code: "invalid_argument", reason: "name: too long" }],
        error: error(Code.InvalidArgument),
      };
    };
    await pusher().pushAll();
    expect(pushes).toEqual([ids(4), ["a0", "a2", "a3"]]);
    expect(await held()).toEqual([["a1", "invalid_argument", "name: too long"]]);
  });

  it("fails with the error of a failed Push, the outbox untouched", async () => {
    await write(ids(2));
    answer = () => ({ kind: "failed", error: error(Code.Unauthenticated) });
    await expect(pusher().pushAll()).rejects.toMatchObject({ code: Code.Unauthenticated });
    expect(await outbox()).toEqual(ids(2));
    expect(await held()).toEqual([]);
  });
});
