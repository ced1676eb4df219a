/**
 * WebKitGTK for the cross-engine browser tests: WebKitWebDriver (the webkit2gtk-driver Debian
 * package, or HIVEKEEP_WEBKIT_DRIVER) driving MiniBrowser under a virtual display (xvfb-run),
 * through the few classic WebDriver commands the scenario needs, over fetch: a client library
 * would bring far more than these 100 lines. Each profile is a WebDriver session (its own
 * MiniBrowser); its tabs are the session's windows.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { accessSync, constants, existsSync } from "node:fs";
import { createServer } from "node:net";
import { type Engine, type EngineProfile, type EngineTab, requireEngine } from "./engine.ts";

export const webkitDriverPath = process.env.HIVEKEEP_WEBKIT_DRIVER ?? "/usr/bin/WebKitWebDriver";

/** MiniBrowser of the installed WebKitGTK (libwebkit2gtk-4.1-0 ships it). */
function miniBrowser(): string | undefined {
  for (const dir of ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib"]) {
    const path = `${dir}/webkit2gtk-4.1/MiniBrowser`;
    if (existsSync(path)) return path;
  }
  return undefined;
}

function findMissing(): string | undefined {
  try {
    accessSync(webkitDriverPath, constants.X_OK);
  } catch {
    return `no WebKitWebDriver at ${webkitDriverPath} (install the webkit2gtk-driver package or set HIVEKEEP_WEBKIT_DRIVER)`;
  }
  try {
    execFileSync("sh", ["-c", "command -v xvfb-run"], { stdio: "ignore" });
  } catch {
    return "no xvfb-run (install the xvfb package): WebKitGTK needs a display";
  }
  return undefined;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** One WebDriver session: commands are queued, so each runs in the tab (window) it names. */
class Session {
  private queue: Promise<unknown> = Promise.resolve();
  private current = "";

  constructor(
    private readonly base: string,
    readonly id: string,
  ) {}

  static async start(base: string): Promise<Session> {
    const binary = miniBrowser();
    const { sessionId } = await command(base, "POST", "/session", {
      capabilities: {
        alwaysMatch: {
          "webkitgtk:browserOptions": binary ? { binary, args: ["--automation"] } : {},
          timeouts: { script: 60_000, pageLoad: 60_000 },
        },
      },
    });
    const session = new Session(base, sessionId);
    session.current = await session.send("GET", "/window");
    await session.resize(390, 844);
    return session;
  }

  // biome-ignore lint/suspicious/noExplicitAny: WebDriver replies are JSON checked by the caller.
  send(method: string, path: string, body?: unknown): Promise<any> {
    return command(this.base, method, `/session/${this.id}${path}`, body);
  }

  /**
   * Sizes the current window so that its page is width × height: the window adds MiniBrowser's
   * header bar, and GTK keeps it at least 447 px wide (a phone's page is that wide then; still
   * the phone layout).
   */
  async resize(width: number, height: number): Promise<void> {
    await this.send("POST", "/window/rect", { width, height });
    const [inner, outer] = (await this.send("POST", "/execute/sync", {
      script: "return [innerHeight, outerHeight]",
      args: [],
    })) as [number, number];
    await this.send("POST", "/window/rect", { width, height: height + outer - inner });
  }

  /** Runs `fn` alone, with `handle`'s window current. */
  in<T>(handle: string, fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(async () => {
      if (handle !== this.current) {
        await this.send("POST", "/window", { handle });
        this.current = handle;
      }
      return fn();
    });
    this.queue = next.catch(() => {});
    return next;
  }

  /** The session's first window, or a new one. */
  private used = false;
  async newHandle(): Promise<string> {
    if (!this.used) {
      this.used = true;
      return this.current;
    }
    return this.in(this.current, async () => {
      const { handle } = await this.send("POST", "/window/new", { type: "window" });
      return handle as string;
    });
  }
}

// biome-ignore lint/suspicious/noExplicitAny: WebDriver replies are JSON checked by the caller.
async function command(base: string, method: string, path: string, body?: unknown): Promise<any> {
  const reply = await fetch(`${base}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    // A command that never answers (a background window's screenshot does not) fails by name.
    signal: AbortSignal.timeout(70_000),
  });
  const json = (await reply.json()) as { value: { error?: string; message?: string } };
  if (!reply.ok) {
    throw new Error(`WebDriver ${method} ${path}: ${json.value?.error}: ${json.value?.message}`);
  }
  return json.value;
}

/** Runs an expression, awaiting a promise, and hands back its value or its error's text. */
const asyncScript = (expression: string) => `const done = arguments[arguments.length - 1];
Promise.resolve().then(() => (${expression})).then(
  (v) => done({ ok: v === undefined ? null : v }),
  (e) => done({ error: String((e && e.message) || e) }),
);`;

function tab(session: Session, handle: string): EngineTab {
  const send = (method: string, path: string, body?: unknown) =>
    session.in(handle, () => session.send(method, path, body));
  return {
    async goto(url) {
      await send("POST", "/url", { url });
    },
    async reload() {
      await send("POST", "/refresh", {});
    },
    async run(expression) {
      const r = await send("POST", "/execute/async", { script: asyncScript(expression), args: [] });
      if (r && "error" in r) throw new Error(r.error);
      return r?.ok;
    },
    async resize(width, height) {
      await session.in(handle, () => session.resize(width, height));
    },
    async screenshot() {
      return Buffer.from(await send("GET", "/screenshot"), "base64");
    },
    async close() {
      await send("DELETE", "/window");
    },
  };
}

export const webkit: Engine = {
  id: "webkit",
  name: "WebKitGTK",
  missing: findMissing(),
  async launch() {
    requireEngine(webkit);
    const port = await freePort();
    // Its own process group, so stopping it stops Xvfb and every MiniBrowser with it.
    const driver: ChildProcess = spawn(
      "xvfb-run",
      ["-a", "-s", "-screen 0 1280x1024x24", webkitDriverPath, `--port=${port}`],
      { detached: true, stdio: ["ignore", "ignore", "pipe"] },
    );
    let log = "";
    driver.stderr?.on("data", (d) => {
      log = (log + d).slice(-4000);
    });
    const base = `http://127.0.0.1:${port}`;
    const stop = () => {
      try {
        if (driver.pid) process.kill(-driver.pid, "SIGTERM");
      } catch {}
    };
    for (let i = 0; ; i++) {
      try {
        const status = await command(base, "GET", "/status");
        if (status?.ready !== false) break;
      } catch (err) {
        if (i > 150 || driver.exitCode !== null) {
          stop();
          throw new Error(`WebKitWebDriver did not start: ${(err as Error).message}\n${log}`);
        }
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const sessions = new Set<Session>();
    return {
      async newProfile(): Promise<EngineProfile> {
        const session = await Session.start(base);
        sessions.add(session);
        return {
          newTab: async () => tab(session, await session.newHandle()),
          // Classic WebDriver has no init scripts or console events: the Chromium and Firefox
          // runs check the CSP; here the page checks nothing it cannot see after loading.
          takeCspViolations: () => [],
          async close() {
            sessions.delete(session);
            await session.send("DELETE", "").catch(() => {});
          },
        };
      },
      async close() {
        for (const s of sessions) await s.send("DELETE", "").catch(() => {});
        stop();
      },
    };
  },
};
