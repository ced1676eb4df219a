/** The README's curl examples, run as written against real servers. */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./support/server.ts";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const block = /this works as written:\n\n```sh\n([\s\S]*?)```/.exec(readme)?.[1];
const hostedBlock = /posts with it, as written:\n\n```sh\n([\s\S]*?)```/.exec(readme)?.[1];
const scaleBlock = /a scale's calls, as written:\n\n```sh\n([\s\S]*?)```/.exec(readme)?.[1];

const runScript = async (script: string) =>
  (
    await promisify(execFile)("bash", ["-euo", "pipefail", "-c", script], {
      encoding: "utf8",
      timeout: 20_000,
    })
  ).stdout;

describe("README", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer("pglite");
  });
  afterAll(async () => {
    await t?.stop();
  });

  // Async: the server runs in this process and must answer while the script runs.
  it("has a curl example that works as written", async () => {
    expect(block, "the README's curl example").toBeDefined();
    const script = (block ?? "").replace("HK=http://127.0.0.1:8080", `HK=${t.url}`);
    expect(script).toContain(`HK=${t.url}`);
    const out = await runScript(script);
    const lines = out.trim().split("\n");
    const created = JSON.parse(lines[0] ?? "");
    expect(created.apiary.name).toBe("Orchard");
    const replies = lines.slice(1).map((l) => JSON.parse(l));
    const [listed, updated, got, deleted, gone, pulled] = replies;
    expect(listed.apiaries).toHaveLength(1);
    expect(listed.page).toEqual({ total: 1 });
    expect(updated.apiary).toMatchObject({ name: "Orchard north", address: "Mill lane 6" });
    expect(got.apiary.id).toBe(created.apiary.id);
    expect(deleted).toEqual({});
    expect(gone.code).toBe("not_found");
    expect(pulled.changes.map((c: { op: string }) => c.op)).toEqual([
      "CHANGE_OP_UPSERT",
      "CHANGE_OP_UPSERT",
      "CHANGE_OP_DELETE",
    ]);
  });

  it("has a curl example of a hive scale: a reading retried under its key, a backlog sent twice", async () => {
    expect(scaleBlock, "the README's hive scale example").toBeDefined();
    const script = (scaleBlock ?? "").replace("HK=http://127.0.0.1:8080", `HK=${t.url}`);
    expect(script).toContain(`HK=${t.url}`);
    const replies = (await runScript(script))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const [reading, retried, backlog, resent, listed] = replies;
    expect(reading.inspection).toMatchObject({ weightKg: 41.7, tempHive: 34.6, humidityHive: 58 });
    expect(retried).toEqual(reading);
    expect(backlog.created).toBe(3);
    expect(resent).toEqual({
      results: backlog.results.map((r: { inspectionId: string }) => ({
        inspectionId: r.inspectionId,
        status: "READING_STATUS_ALREADY_STORED",
      })),
      alreadyStored: 3,
    });
    expect(listed.page.total).toBe(4);
    expect(listed.inspections.map((i: { date: string }) => i.date).slice(1)).toEqual([
      "2026-06-01T00:00:00Z",
      "2026-05-31T23:45:00Z",
      "2026-05-31T23:30:00Z",
    ]);
  });

  describe("hosted mode", () => {
    let hosted: TestServer;
    beforeAll(async () => {
      hosted = await startTestServer("pglite", { HIVEKEEP_AUTH: "login" });
    });
    afterAll(async () => {
      await hosted?.stop();
    });

    it("has a curl example that signs up, creates an API key and uses it", async () => {
      expect(hostedBlock, "the README's hosted-mode example").toBeDefined();
      const script = (hostedBlock ?? "").replace("HK=http://127.0.0.1:8080", `HK=${hosted.url}`);
      expect(script).toContain(`HK=${hosted.url}`);
      const ran = Date.now();
      const replies = (await runScript(script))
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      const [me, created, anonymous, keys] = replies;
      expect(me).toMatchObject({
        user: { email: "ana@example.org" },
        organization: { name: "Linden Bees" },
        role: "ROLE_OWNER",
        authMode: "AUTH_MODE_LOGIN",
      });
      expect(created.apiary).toMatchObject({
        name: "Linden row",
        organizationId: me.organization.id,
      });
      expect(anonymous.code).toBe("unauthenticated");
      expect(keys.keys).toHaveLength(1);
      expect(keys.keys[0]).toMatchObject({
        name: "Scale 1",
        prefix: expect.stringMatching(/^hk_/),
      });
      // The key was used by the script (its ApiaryService call), on this machine's clock.
      const lastUsed = Date.parse(keys.keys[0].lastUsedAt);
      expect(lastUsed).toBeGreaterThanOrEqual(ran);
      expect(lastUsed).toBeLessThanOrEqual(Date.now());
    });
  });
});
