/**
 * Push and Pull through the real server (HTTP/1.1, binary protobuf, from a device's client-core
 * sync client) against the raw database doing the same work in the same run (figures `push` and
 * `pull`; ratio = ours / raw throughput, 1.0 = as fast as raw).
 *
 * The server runs in a process of its own (server-process.ts), as in production, where the
 * device is another machine; this process is the device. The raw side runs in the server's
 * process, beside the database (PGlite lives there), and is timed there.
 *
 * - push: batches of 500 new inspections (stock-card and scale columns) that a device pushes;
 *   raw: one multi-row insert of the same rows and one of their feed rows, in one transaction.
 *   A sample is one batch's changes/s; ours and raw alternate batch by batch, after 3 batches
 *   each to warm up.
 * - pull: the whole feed (what the pushes wrote) in pages of 5000, as a device's first sync
 *   reads it (its client asks for the next page as soon as a page's headers arrive); raw: the
 *   same select of the raw feed, page after page, every value parsed by the driver. A sample is
 *   one pass's changes/s; passes alternate after one pass each to warm up.
 * Beside the ratios, the server process's CPU time per 1000 changes, ours and raw: what the
 * work costs the server, whatever runs in parallel; and this process's (the device's) for ours,
 * which the raw side has no counterpart of: it shows how much of ours is the device's share
 * (receiving and decoding a Pull, encoding a Push), on the same cores as the server.
 *
 * BENCH_BATCHES (default 40; 10 with --quick) sets the number of push batches, and so the
 * feed's length; BENCH_PULL_PASSES (default 5; 3 with --quick) the measured pull passes.
 */
import { createSyncClient } from "@hivekeep/client-core/sync";
import { keptMs } from "../../server/src/rpc/shared-pulls.ts";
import { type BenchContext, type BenchRun, compared, round } from "./report.ts";
import { newHive, startServerProcess } from "./server-client.ts";
import { batch, inspections, page } from "./workload.ts";

export async function run(ctx: BenchContext): Promise<BenchRun[]> {
  const batches = Number(process.env.BENCH_BATCHES ?? (ctx.quick ? 10 : 40));
  const pullPasses = Number(process.env.BENCH_PULL_PASSES ?? (ctx.quick ? 3 : 5));
  const server = await startServerProcess(ctx.databaseUrl);
  try {
    const sync = createSyncClient({ baseUrl: server.url });
    const { apiaryId, hiveId } = await newHive(server.url, "Bench");
    await server.ask("setup", { apiaryId, hiveId });

    // Server CPU seconds spent on each side's measured work, and this process's (the
    // device's) for ours.
    const cpu = { oursPush: 0, rawPush: 0, oursPull: 0, rawPull: 0 };
    const device = { oursPush: 0, oursPull: 0 };
    const deviceSeconds = () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1e6;
    };
    const withCpu = async <T>(
      side: keyof typeof cpu | undefined,
      work: () => Promise<T>,
    ): Promise<T> => {
      if (!side) return work();
      const before = await server.cpu();
      const deviceBefore = deviceSeconds();
      const result = await work();
      const deviceAfter = deviceSeconds();
      cpu[side] += (await server.cpu()) - before;
      if (side === "oursPush" || side === "oursPull") device[side] += deviceAfter - deviceBefore;
      return result;
    };
    const elapsed = async (work: () => Promise<unknown>) => {
      const start = performance.now();
      await work();
      return (performance.now() - start) / 1000;
    };

    // Warm up both paths (connections, query plans, and the JIT on full-size batches); the
    // measured batches are what the device would have queued.
    const warm = 3;
    const pushSamples = { ours: [] as number[], baseline: [] as number[] };
    for (let i = 0; i < warm + batches; i++) {
      const changes = inspections(apiaryId, hiveId, batch);
      const counted = i >= warm;
      const oursSeconds = await withCpu(counted ? "oursPush" : undefined, () =>
        elapsed(() => sync.push(changes)),
      );
      const rawSeconds = await withCpu(counted ? "rawPush" : undefined, async () =>
        Number((await server.ask("rawPush")).seconds),
      );
      if (!counted) continue;
      pushSamples.ours.push(batch / oursSeconds);
      pushSamples.baseline.push(batch / rawSeconds);
    }

    // A pass reads the whole feed (ours: what the device pulls; raw: the same rows of the raw
    // feed), page by page.
    // Before each pass, as on a device's first sync, no identical Pull in the last second, so
    // the server reads every page (identical Pulls on an unchanged feed share a page for
    // `keptMs`: server/src/rpc/shared-pulls.ts).
    const pause = () => new Promise((resolve) => setTimeout(resolve, keptMs + 100));
    const oursPass = async (): Promise<number> => {
      let rows = 0;
      for await (const p of sync.pages("", page)) rows += p.changes.length;
      return rows;
    };
    await oursPass();
    await server.ask("rawPull");
    const pullSamples = { ours: [] as number[], baseline: [] as number[] };
    let feedLength = 0;
    for (let pass = 0; pass < pullPasses; pass++) {
      let rows = 0;
      const seconds = await withCpu("oursPull", async () => {
        await pause();
        return elapsed(async () => {
          rows = await oursPass();
        });
      });
      pullSamples.ours.push(rows / seconds);
      feedLength = rows;
      const raw = await withCpu("rawPull", () => server.ask("rawPull"));
      pullSamples.baseline.push(Number(raw.rows) / Number(raw.seconds));
    }

    const perThousand = (seconds: number, changes: number) => round((seconds / changes) * 1e6);
    const pushed = batch * batches;
    const pulled = feedLength * pullPasses;
    return [
      compared(
        {
          name: "push",
          database: ctx.database,
          unit: "changes/s",
          baseline: "the same rows and feed rows inserted raw, one statement each per batch",
          target: "ratio ≥ 0.5",
          notes: `${batches} batches of ${batch} inspections, alternating with raw after ${warm} each to warm up${ctx.quick ? " (--quick; full: 40)" : ""}`,
          details: {
            "server CPU ms/1000 changes (ours)": perThousand(cpu.oursPush, pushed),
            "server CPU ms/1000 changes (raw)": perThousand(cpu.rawPush, pushed),
            "device CPU ms/1000 changes (ours)": perThousand(device.oursPush, pushed),
          },
        },
        pushSamples,
        "better",
        (ratio) => ratio >= 0.5,
      ),
      compared(
        {
          name: "pull",
          database: ctx.database,
          unit: "changes/s",
          baseline: "the same selects of the raw feed, every value parsed by the driver",
          target: "ratio ≥ 0.5",
          notes: `a first sync of ${feedLength} changes in pages of ${page}, ${pullPasses} passes alternating with raw after one each to warm up`,
          details: {
            "server CPU ms/1000 changes (ours)": perThousand(cpu.oursPull, pulled),
            "server CPU ms/1000 changes (raw)": perThousand(cpu.rawPull, pulled),
            "device CPU ms/1000 changes (ours)": perThousand(device.oursPull, pulled),
          },
        },
        pullSamples,
        "better",
        (ratio) => ratio >= 0.5,
      ),
    ];
  } finally {
    await server.stop();
  }
}
