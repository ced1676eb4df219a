import { createHivekeepClient, type HivekeepClient } from "@hivekeep/client-core";
import { ApiaryService } from "@hivekeep/proto";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

describe.each(databaseKinds)("device client on %s", (kind) => {
  let t: TestServer;
  const clients: HivekeepClient[] = [];
  beforeAll(async () => {
    t = await startTestServer(kind);
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await t?.stop();
  });
  const device = async () => {
    const c = await createHivekeepClient({
      baseUrl: t.url,
      indexedDB: new IDBFactory(),
      IDBKeyRange,
    });
    clients.push(c);
    return c;
  };

  it("writes offline, pushes, and another device pulls it", async () => {
    const a = await device();
    const b = await device();
    const { apiary } = await a.apiaries.createApiary({ name: "Lindenhof" });
    expect(apiary?.name).toBe("Lindenhof");
    expect((await a.apiaries.listApiaries({})).apiaries.map((x) => x.name)).toEqual(["Lindenhof"]);
    await a.sync.syncNow();
    expect(a.sync.status.pending).toBe(0);
    const server = await t.client(ApiaryService).getApiary({ id: apiary?.id ?? "" });
    expect(server.apiary?.name).toBe("Lindenhof");
    await b.sync.syncNow();
    expect((await b.apiaries.getApiary({ id: apiary?.id ?? "" })).apiary).toEqual(server.apiary);
  });

  it("a live query sees a local write", async () => {
    const a = await device();
    const seen: string[][] = [];
    const sub = a
      .live((c) => c.apiaries.listApiaries({}))
      .subscribe({
        next: (r) => seen.push(r.apiaries.map((x) => x.name)),
      });
    await expect.poll(() => seen.length).toBeGreaterThan(0);
    await a.apiaries.createApiary({ name: "Heide" });
    await expect.poll(() => seen.at(-1)).toContain("Heide");
    sub.unsubscribe();
  });
});
