/**
 * An edit wins over the row it edits, even when another node stamped that row ahead of this
 * node's clock (by up to the 60 s Push accepts) and this node has never seen the stamp: the
 * store's writer observes every row an operation reads (`observeReads` in
 * client-core/src/ops/replica-store.ts) with the clock the session stamps with, on the server
 * (server/src/rpc/session.ts) and on the device (client-core/src/device/create-client.ts). The
 * rows arrive through `seed` (the server's write path as another device's Push would, the
 * device's replica as if pulled), which shows the clock nothing. Its own file: the server's
 * clock, once it has seen those stamps, stamps ahead for the rest of the file.
 */
import { randomUUID } from "node:crypto";
import {
  type CommandContext,
  createApiary,
  createTask,
  formatHlc,
} from "@hivekeep/client-core/core";
import { TaskPriority } from "@hivekeep/proto";
import { localUserId } from "@hivekeep/server";
import { describe, expect, it } from "vitest";
import { seedChanges } from "../support/command-seed.ts";
import { callOk, feedHead, pullAll } from "../support/fixtures.ts";
import { targetKinds, useTestTarget } from "../support/target.ts";

/** Another device, whose stamps are `aheadMs` ahead of this machine's clock (read once). */
function deviceAhead(aheadMs: number): CommandContext {
  const ms = Date.now() + aheadMs;
  let counter = 0;
  return {
    now: new Date(),
    authorId: localUserId,
    newId: () => randomUUID(),
    stamp: () => formatHlc({ ms, counter: ++counter, node: "dev-fast" }),
  };
}

describe.each(targetKinds)("edits of rows stamped ahead of the clock on %s", (kind) => {
  const t = useTestTarget(kind);

  it("UpdateApiary and SetTaskDone win over rows another device stamped 50 s ahead, with later stamps", async () => {
    const ahead = deviceAhead(50_000);
    const apiary = createApiary(ahead, { name: "Ahead", address: "", lat: 0, lng: 0 });
    const task = createTask(
      ahead,
      { hive: undefined, apiaryExists: false },
      { title: "Ahead", hiveId: "", apiaryId: "", priority: TaskPriority.UNSPECIFIED },
    );
    const seeded = [...apiary.changes, ...task.changes];
    // The latest stamp of each row: what the edit of the row must come after.
    const latest = new Map<string, string>();
    for (const c of seeded) {
      if (c.hlc > (latest.get(c.entityId) ?? "")) latest.set(c.entityId, c.hlc);
    }
    await seedChanges(t, seeded);
    const cursor = await feedHead(t);

    const updated = await callOk(t, "ApiaryService/UpdateApiary", {
      id: apiary.id,
      name: "Edited",
    });
    expect(updated.apiary.name).toBe("Edited");
    const done = await callOk(t, "TaskService/SetTaskDone", { id: task.id, done: true });
    expect(done.task.done).toBe(true);

    // What the edits wrote (the server's feed, the device's outbox) is stamped after the rows.
    const written = (await pullAll(t, cursor)).changes;
    expect(written.map((c) => c.entityId).sort()).toEqual([apiary.id, task.id].sort());
    for (const c of written) {
      const row = latest.get(c.entityId) ?? "";
      expect(c.hlc > row, `${c.entity} ${c.hlc} after ${row}`).toBe(true);
    }
  });
});
