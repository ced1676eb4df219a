/** The real entry point as an operator runs it: `tsx server/src/main.ts`. */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const serverDir = join(import.meta.dirname, "..", "..", "server");

function run(env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: serverDir,
    env: { ...process.env, HIVEKEEP_LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout?.on("data", (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => out, exited };
}

async function waitFor(pred: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 50));
  }
}

// Each test starts the real server (PGlite initialises a data directory, the migrations run) up
// to twice, each start waited for up to 90 s: the test timeout covers them all, whatever the load.
describe("server/src/main.ts", { timeout: 240_000 }, () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    child?.kill("SIGKILL");
  });

  it("starts on the embedded database, logs JSON, and exits 0 on SIGTERM", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "hk-main-"));
    try {
      const p = run({ HIVEKEEP_PORT: "0", HIVEKEEP_DATA_DIR: dataDir, DATABASE_URL: "" });
      child = p.child;
      await waitFor(() => p.output().includes("hivekeep listening"), 90_000);
      const line =
        p
          .output()
          .split("\n")
          .find((l) => l.includes("hivekeep listening")) ?? "";
      const log = JSON.parse(line);
      expect(log).toMatchObject({ level: 30, database: "pglite", auth: "none" });
      const health = await fetch(`${log.url}/healthz`);
      expect(health.status).toBe(200);
      await fetch(`${log.url}/hivekeep.v1.ApiaryService/CreateApiary`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"name":"Persisted"}',
      });
      // A request log line carries a request id.
      await waitFor(() => p.output().includes('"path":"/hivekeep.v1.ApiaryService'), 5_000);
      const req = p
        .output()
        .split("\n")
        .find((l) => l.includes('"path":"/hivekeep.v1.ApiaryService'));
      expect(JSON.parse(req ?? "{}").requestId).toMatch(/.{8,}/);
      p.child.kill("SIGTERM");
      expect(await p.exited).toBe(0);
      expect(p.output()).toContain("hivekeep stopped");

      // The data survives a restart.
      const again = run({ HIVEKEEP_PORT: "0", HIVEKEEP_DATA_DIR: dataDir, DATABASE_URL: "" });
      child = again.child;
      await waitFor(() => again.output().includes("hivekeep listening"), 90_000);
      const url = JSON.parse(
        again
          .output()
          .split("\n")
          .find((l) => l.includes("hivekeep listening")) ?? "{}",
      ).url;
      const list = await fetch(`${url}/hivekeep.v1.ApiaryService/ListApiaries`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      const body = (await list.json()) as { apiaries: { name: string }[] };
      expect(body.apiaries.map((a) => a.name)).toEqual(["Persisted"]);
      again.child.kill("SIGTERM");
      expect(await again.exited).toBe(0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("refuses to start with a bad configuration value, naming it", async () => {
    const p = run({ HIVEKEEP_PORT: "eighty" });
    child = p.child;
    expect(await p.exited).toBe(2);
    expect(p.output()).toContain('HIVEKEEP_PORT="eighty" is not a port number');
  });

  it("refuses to start in login mode when nobody could ever sign in", async () => {
    const p = run({
      HIVEKEEP_PORT: "0",
      HIVEKEEP_AUTH: "login",
      HIVEKEEP_SIGNUP: "closed",
      HIVEKEEP_DATA_DIR: ":memory:",
      DATABASE_URL: "",
    });
    child = p.child;
    expect(await p.exited).toBe(1);
    expect(p.output()).toContain("HIVEKEEP_SIGNUP=closed, but no account exists yet");
    expect(p.output()).not.toContain("hivekeep listening");
  });

  it("warns loudly when it listens beyond loopback without login", async () => {
    const p = run({
      HIVEKEEP_PORT: "0",
      HIVEKEEP_HOST: "0.0.0.0",
      HIVEKEEP_DATA_DIR: ":memory:",
      DATABASE_URL: "",
    });
    child = p.child;
    await waitFor(() => p.output().includes("hivekeep listening"), 90_000);
    expect(p.output()).toMatch(/"level":40.*HIVEKEEP_AUTH=none on a non-loopback address/);
    p.child.kill("SIGTERM");
    expect(await p.exited).toBe(0);
  });
});
