/**
 * `pnpm bench` figure of a scale's backlog (issue 29): CreateReadings over HTTP/1.1 with JSON,
 * batches of 1,000 readings of one hive, each with its own idempotency key, one batch after
 * another, against the raw database writing the same rows (rpc-raw.ts's rawCreateReadings: the
 * inspections, their INSPECTION events and their feed rows, set-based, one transaction per
 * batch, in the server's process beside the database, timed there).
 *
 * - readings-batch-ingest: readings/s. A round is `batches` batches of one side (new readings
 *   every round: the backlog goes back in time); sides alternate round by round after a round
 *   each to warm up. Ratio = ours / raw readings/s; target ≥ 0.7 (issue 29). Details: the
 *   server process's CPU ms per 1,000 readings of each side, and the batch's JSON size.
 */
import { alternate, type BenchContext, type BenchRun, compared, round } from "./report.ts";
import { type BenchReading, scaleReadings } from "./rpc-raw.ts";
import { call, newHive, startServerProcess } from "./server-client.ts";

const batchSize = 1000;
const sizes = (quick: boolean) => (quick ? { rounds: 2, batches: 2 } : { rounds: 7, batches: 5 });

export async function run(ctx: BenchContext): Promise<BenchRun[]> {
  const { rounds, batches } = sizes(ctx.quick);
  const server = await startServerProcess(ctx.databaseUrl);
  try {
    const { hiveId } = await newHive(server.url, "Scale yard");
    // Each round's batches: the next stretch of the backlog, further back in time.
    let endMs = Date.parse("2026-06-01T00:00:00Z");
    const nextRound = (): BenchReading[][] =>
      Array.from({ length: batches }, () => {
        const batch = scaleReadings(hiveId, "scale-1", endMs, batchSize);
        endMs -= batchSize * 15 * 60_000;
        return batch;
      });
    const cpu = { ours: 0, raw: 0 };
    const readings = batches * batchSize;
    const ours = async () => {
      const round = nextRound();
      const before = await server.cpu();
      const start = performance.now();
      for (const batch of round) {
        const answer = (await call(server.url, "InspectionService/CreateReadings", {
          readings: batch,
        })) as { created?: number };
        if (answer.created !== batchSize) throw new Error(`created ${answer.created}`);
      }
      const seconds = (performance.now() - start) / 1000;
      cpu.ours += (await server.cpu()) - before;
      return readings / seconds;
    };
    const raw = async () => {
      const round = nextRound();
      const before = await server.cpu();
      const r = await server.ask("rawCreateReadings", { batches: round });
      cpu.raw += (await server.cpu()) - before;
      return readings / (r.seconds ?? Number.NaN);
    };
    await ours();
    await raw();
    cpu.ours = 0;
    cpu.raw = 0;
    const samples = await alternate(rounds, 0, ours, raw);
    const cpuMsPerThousand = (seconds: number) =>
      round((seconds * 1000 * batchSize) / (rounds * readings), 1);
    const bodyBytes = JSON.stringify({ readings: nextRound()[0] }).length;
    return [
      compared(
        {
          name: "readings-batch-ingest",
          database: ctx.database,
          unit: "readings/s",
          baseline:
            "the same inspection, event and feed rows by hand, set-based, one transaction per batch",
          target: "ratio ≥ 0.7",
          notes: `CreateReadings over HTTP/1.1 JSON, batches of ${batchSize} readings of one hive, each with an idempotency key, one batch at a time; ${rounds} rounds of ${batches} batches per side, alternating after a round each to warm up${ctx.quick ? "; quick: fewer rounds" : ""}`,
          details: {
            "server process CPU ms/1000 readings (ours)": cpuMsPerThousand(cpu.ours),
            "server process CPU ms/1000 readings (raw)": cpuMsPerThousand(cpu.raw),
            "batch JSON bytes": bodyBytes,
          },
        },
        samples,
        "better",
        (ratio) => ratio >= 0.7,
      ),
    ];
  } finally {
    await server.stop();
  }
}
