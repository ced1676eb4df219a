import { Code, ConnectError } from "@connectrpc/connect";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { describe, expect, it } from "vitest";
import { createHivekeepClient } from "./create-client.ts";

const offline: typeof fetch = async () => {
  throw new TypeError("no network in this test");
};

describe("a local write the device cannot store", () => {
  it("fails with resource_exhausted and keeps nothing of the write", async () => {
    const client = await createHivekeepClient({
      baseUrl: "http://device.test",
      indexedDB: new IDBFactory(),
      IDBKeyRange,
      fetch: offline,
      account: { organizationId: "org-1", userId: "user-1" },
    });
    const { apiary } = await client.apiaries.createApiary({ name: "Lindenhof" });
    const { hive } = await client.hives.createHive({ apiaryId: apiary?.id ?? "", name: "Nord" });
    const outboxBefore = await client.db.outbox.count();
    // The second row of the write (its INSPECTION event) finds the storage full.
    client.db.table("events").hook("creating", () => {
      throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    });
    const failed = client.inspections.createInspection({ hiveId: hive?.id ?? "" });
    await expect(failed).rejects.toThrow(ConnectError);
    const err = ConnectError.from(await failed.catch((e) => e));
    expect(err.code).toBe(Code.ResourceExhausted);
    expect(err.rawMessage).toMatch(/storage is full: nothing was saved/);
    expect((await client.inspections.listInspections({})).inspections).toEqual([]);
    const outbox = await client.db.outbox.toArray();
    expect(
      outbox.map((e) => e.rowKey),
      JSON.stringify(outbox.map((e) => e.change.entity)),
    ).toHaveLength(outboxBefore);
    await client.close();
  });
});
