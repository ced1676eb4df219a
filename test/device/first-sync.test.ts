import { Code, ConnectError } from "@connectrpc/connect";
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
    // The live query's answers, waited for as they come (no polling with a ceiling).
    const answers: string[][] = [];
    const waiting = new Set<() => void>();
    const answer = (match: (names: string[]) => boolean) =>
      new Promise<string[]>((resolve) => {
        const check = () => {
          const hit = answers.find(match);
          if (hit === undefined) return;
          waiting.delete(check);
          resolve(hit);
        };
        waiting.add(check);
        check();
      });
    const sub = a
      .live((c) => c.apiaries.listApiaries({}))
      .subscribe({
        next: (r) => {
          answers.push(r.apiaries.map((x) => x.name));
          for (const check of waiting) check();
        },
      });
    await answer(() => true);
    expect(answers.flat()).not.toContain("Heide");
    await a.apiaries.createApiary({ name: "Heide" });
    expect(await answer((names) => names.includes("Heide"))).toContain("Heide");
    sub.unsubscribe();
  });
});

describe("device client opened offline", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer("pglite");
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("opens the replica of the last account seen here when fetch fails as it does offline", async () => {
    const indexedDB = new IDBFactory();
    const online = await createHivekeepClient({ baseUrl: t.url, indexedDB, IDBKeyRange });
    await online.apiaries.createApiary({ name: "Waldrand" });
    const { organizationId, userId, dbName } = online;
    await online.close();
    // What a browser's fetch does with no network.
    const offlineFetch: typeof fetch = async () => {
      throw new TypeError("Failed to fetch");
    };
    const offline = await createHivekeepClient({
      baseUrl: t.url,
      indexedDB,
      IDBKeyRange,
      fetch: offlineFetch,
    });
    try {
      expect([offline.organizationId, offline.userId, offline.dbName]).toEqual([
        organizationId,
        userId,
        dbName,
      ]);
      expect((await offline.apiaries.listApiaries({})).apiaries.map((a) => a.name)).toEqual([
        "Waldrand",
      ]);
    } finally {
      await offline.close();
    }
  });

  it("fails as unavailable when this device never saw an account", async () => {
    const err = await createHivekeepClient({
      baseUrl: t.url,
      indexedDB: new IDBFactory(),
      IDBKeyRange,
      fetch: async () => {
        throw new TypeError("Failed to fetch");
      },
    }).catch((e: unknown) => e);
    expect(ConnectError.from(err).code).toBe(Code.Unavailable);
  });
});
