/**
 * A reconnect pushes what waits at once (issue 28): a device offline long enough for its retry
 * backoff to grow gets the server back; its Subscribe stream reconnects and the server answers
 * at once (the opening heartbeat: the device is not behind, so no poke comes), and the outbox
 * goes out then, before the cycle's own retry timer. The server's heartbeat interval is a minute
 * here, longer than the test: only the heartbeat a stream opens with can answer in time
 * (docs/decisions.md). The engine's timers are driven by hand (no wall clock is measured); the
 * network and the server run for real.
 */
import {
  createHivekeepClient,
  type HivekeepClient,
  type HivekeepClientOptions,
} from "@hivekeep/client-core";
import { ApiaryService } from "@hivekeep/proto";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { deviceBaseUrl, eventually, Network } from "./harness.ts";

type Timers = NonNullable<HivekeepClientOptions["timers"]>;

/** The engine's timers, fired only when the test moves the clock. */
class ManualTimers implements Timers {
  now = 0;
  private nextId = 0;
  private readonly queue = new Map<number, { at: number; fn: () => void }>();
  setTimeout(fn: () => void, ms: number): unknown {
    this.nextId += 1;
    this.queue.set(this.nextId, { at: this.now + ms, fn });
    return this.nextId;
  }
  clearTimeout(handle: unknown): void {
    this.queue.delete(handle as number);
  }
  /** When the pending timers fire, from now. */
  pending(): number[] {
    return [...this.queue.values()].map((t) => t.at - this.now).sort((a, b) => a - b);
  }
  /** Moves the clock `ms` on, firing what falls due (in order). */
  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      const due = [...this.queue.entries()]
        .filter(([, t]) => t.at <= end)
        .sort(([, a], [, b]) => a.at - b.at)[0];
      if (due === undefined) break;
      this.queue.delete(due[0]);
      this.now = due[1].at;
      due[1].fn();
    }
    this.now = end;
  }
}

describe.each(databaseKinds)("a device back from an outage on %s", (kind) => {
  let t: TestServer;
  let device: HivekeepClient | undefined;
  beforeAll(async () => {
    // Longer than the test: a periodic heartbeat never comes.
    t = await startTestServer(kind, {}, { heartbeatMs: 60_000 });
  });
  afterAll(async () => {
    await device?.close();
    await t?.stop();
  });

  it("pushes its outbox when the stream is back, before the cycle's retry", async () => {
    const net = new Network(t.url);
    // Open Subscribe streams, to cut them as a lost signal does; and every Push tried.
    const streams = new Set<AbortController>();
    let pushTries = 0;
    const fetch: typeof globalThis.fetch = (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.endsWith("/Push")) pushTries += 1;
      if (!url.endsWith("/Subscribe")) return net.fetch(input, init);
      const cut = new AbortController();
      init?.signal?.addEventListener("abort", () => cut.abort(), { once: true });
      streams.add(cut);
      return net.fetch(input, { ...init, signal: cut.signal });
    };
    const timers = new ManualTimers();
    device = await createHivekeepClient({
      baseUrl: deviceBaseUrl,
      dbName: `reconnect-${kind}`,
      indexedDB: new IDBFactory(),
      IDBKeyRange,
      fetch,
      timers,
      random: () => 0.5,
      debounceMs: 200,
      intervalMs: 3_600_000,
    });
    const client = device;
    client.sync.start();
    timers.advance(0);
    await eventually(() => expect(client.sync.status.lastSyncedAt).toBeDefined());
    await eventually(() => expect(streams.size).toBe(1));

    // The signal goes: the stream breaks and reconnects after 1.5 s (0.75 of 2 s).
    net.offline = true;
    for (const s of streams) s.abort();
    await eventually(() => expect(timers.pending()).toContain(1500));
    await client.apiaries.createApiary({ name: "Written offline" });
    await eventually(() => expect(timers.pending()).toContain(200));
    // The push fails at 200 ms, 950 and 2450 (0.75 of 1 s, 2 s); the next try is 3 s later,
    // at 5450. The stream fails again at 1500; its next try is at 4500.
    for (const [at, tries] of [
      [200, 1],
      [950, 2],
      [1500, 2],
      [2450, 3],
    ] as const) {
      timers.advance(at - timers.now);
      await eventually(() => expect(pushTries).toBe(tries));
      await eventually(() => expect(client.sync.status.syncing).toBe(false));
      await eventually(() => expect(timers.pending().length).toBeGreaterThanOrEqual(3));
    }
    expect(timers.pending()).toEqual(expect.arrayContaining([4500 - 2450, 5450 - 2450]));
    expect(client.sync.status.pending).toBe(1);

    // The server is back; nobody else wrote, so the device is not behind.
    net.offline = false;
    timers.advance(4500 - timers.now);
    // The stream reconnects and the server's first message (its opening heartbeat) comes at
    // once: a cycle now.
    await eventually(() => expect(timers.pending()).toContain(0));
    timers.advance(0);
    await eventually(() => expect(client.sync.status.pending).toBe(0));
    expect(timers.now).toBeLessThan(5450);
    const names = (await t.client(ApiaryService).listApiaries({})).apiaries.map((a) => a.name);
    expect(names).toEqual(["Written offline"]);
  });
});
