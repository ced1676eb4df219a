/** A row's scope follows the merged row, not a stale device's change. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKinds } from "../support/databases.ts";
import { newApiary, newHive, pullAll } from "../support/fixtures.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { device, pushOk, upsert } from "../support/sync.ts";

describe.each(databaseKinds)("scopes on %s", (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind);
  });
  afterAll(async () => {
    await t?.stop();
  });

  const scopeOf = async (table: string, id: string) =>
    (await t.server.db.query(`select scope_id from ${table} where id = $1`, [id]))[0]?.scope_id;

  it("keeps a relocated hive in its new apiary when a device that missed the move edits it", async () => {
    const from = await newApiary(t, "From");
    const to = await newApiary(t, "To");
    const hive = await newHive(t, from, "Mover");
    const stale = device("stale-phone");
    const before = stale.stamp();
    await t.call("HiveService/RelocateHive", { id: hive, targetApiaryId: to });
    const { nextCursor } = await pullAll(t, "");
    // The phone still thinks the hive stands at `from`.
    await pushOk(t, [upsert("hive", hive, from, before, { note: "Calm" })]);
    expect(await scopeOf("hives", hive)).toBe(to);
    const got = (await t.call("HiveService/GetHive", { id: hive })).body.hive;
    expect(got).toMatchObject({ apiaryId: to, note: "Calm" });
    const { changes } = await pullAll(t, nextCursor);
    expect(changes.map((c) => [c.entity, c.scopeId])).toEqual([["hive", to]]);
  });

  it("keeps an apiary task in its apiary when a device still holding it as personal closes it", async () => {
    const apiary = await newApiary(t, "Tasks");
    const task = (await t.call("TaskService/CreateTask", { title: "Wax", apiaryId: apiary })).body
      .task.id;
    const me = (await pullAll(t, "")).changes.find((c) => c.entityId === task)?.authorId;
    await pushOk(t, [
      upsert("task", task, `user:${me}`, device("old-phone").stamp(), { done: true }),
    ]);
    expect(await scopeOf("tasks", task)).toBe(apiary);
    expect((await t.call("TaskService/GetTask", { id: task })).body.task).toMatchObject({
      apiaryId: apiary,
      done: true,
    });
  });
});
