/**
 * The real server as an operator runs it (`tsx server/src/main.ts`), in a child process of its
 * own, so a test can SIGKILL it, cut its database away or read its memory; and `eventually`, the
 * one way tests wait for a condition (a generous ceiling, never a timing assertion).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const serverDir = join(import.meta.dirname, "..", "..", "server");

/** Polls `check` until it passes; throws its last error after `timeoutMs`. */
export async function eventually(
  check: () => Promise<void> | void,
  timeoutMs = 60_000,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (err) {
      if (Date.now() > end) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

export interface MainProcess {
  readonly child: ChildProcess;
  readonly url: string;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  readonly exited: Promise<number | string>;
  readonly alive: () => boolean;
  /** The tail of everything it printed (request lines are logged at info). */
  readonly output: () => string;
  /** Log lines at warn or above, and anything that is not a log line (a Node warning, a stack). */
  readonly complaints: readonly string[];
  /** The process's resident set, in MiB. */
  rss(): number;
}

/**
 * Starts main.ts on a free port with the given settings (by default PGlite in memory, no web
 * app, logging at info) and resolves once it listens; `nodeArgs` go before the script.
 */
export async function startMainProcess(
  env: Record<string, string>,
  nodeArgs: readonly string[] = [],
): Promise<MainProcess> {
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", "src/main.ts"], {
    cwd: serverDir,
    env: {
      ...process.env,
      HIVEKEEP_PORT: "0",
      HIVEKEEP_LOG_LEVEL: "info",
      HIVEKEEP_PWA_DIR: "/nonexistent",
      HIVEKEEP_DATA_DIR: ":memory:",
      DATABASE_URL: "",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let rest = "";
  let url: string | undefined;
  let running = true;
  const complaints: string[] = [];
  const onData = (d: Buffer) => {
    const text = d.toString();
    out = (out + text).slice(-64_000);
    const lines = (rest + text).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) {
      if (line.trim() === "") continue;
      let level = 100;
      try {
        const log = JSON.parse(line) as { level?: number; msg?: string; url?: string };
        level = log.level ?? 100;
        if (log.msg === "hivekeep listening") url = log.url;
      } catch {
        // Not a log line: a complaint.
      }
      if (level >= 40) complaints.push(line.slice(0, 2000));
    }
  };
  child.stdout?.on("data", onData);
  child.stderr?.on("data", onData);
  const exited = new Promise<number | string>((resolve) =>
    child.on("exit", (code, signal) => {
      running = false;
      resolve(code ?? signal ?? "?");
    }),
  );
  await eventually(() => {
    if (!running) throw new Error(`the server exited while starting:\n${out}`);
    if (url === undefined) throw new Error("the server is not listening yet");
  });
  const pid = child.pid as number;
  return {
    child,
    url: url as string,
    exited,
    alive: () => running,
    output: () => out,
    complaints,
    rss() {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      return Number(m?.[1]) / 1024;
    },
  };
}
