import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { describe, expect, it } from "vitest";
import { createHivekeepClient } from "./create-client.ts";

/**
 * A newer server may answer fields this device does not know yet (the server refuses unknown
 * fields in requests, but a device must read answers that grew): they are ignored.
 */
describe("a JSON answer with fields the device does not know", () => {
  it("is read, the unknown fields ignored", async () => {
    const asked: string[] = [];
    const newerServer: typeof fetch = async (input) => {
      asked.push(String(input instanceof Request ? input.url : input));
      const body = {
        user: { id: "user-1", email: "a@example.org", shoeSize: 44 },
        organization: { id: "org-1", name: "Imkerei", founded: "1887" },
        featureFlags: ["new"],
      };
      return new Response(JSON.stringify(body), {
        status: 200,
        headers: { "content-type": "application/json" },
      });
    };
    const client = await createHivekeepClient({
      baseUrl: "http://device.test",
      indexedDB: new IDBFactory(),
      IDBKeyRange,
      fetch: newerServer,
    });
    expect(asked).toEqual(["http://device.test/hivekeep.v1.AuthService/WhoAmI"]);
    expect(client.db.name).toBe("hivekeep:http://device.test:org-1:user-1");
    await client.close();
  });
});
