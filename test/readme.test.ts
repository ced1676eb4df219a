/** The README's curl example, run as written against a real server. */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./support/server.ts";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const block = /this works as written:\n\n```sh\n([\s\S]*?)```/.exec(readme)?.[1];

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
    const { stdout: out } = await promisify(execFile)("bash", ["-euo", "pipefail", "-c", script], {
      encoding: "utf8",
      timeout: 20_000,
    });
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
});
