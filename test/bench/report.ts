/**
 * The one shape of a `pnpm bench` figure, and what turns the figures into the printed table and
 * `bench-results.json` at the repository root:
 *
 *   {"machine": {cpus, memory, node, chromium},
 *    "runs": [{name, database, value, unit, baseline, baselineValue, ratio, target, met, notes,
 *              samples?, details?}]}
 *
 * `ratio` is ours / baseline for throughputs and baseline / ours for latencies, so higher is
 * better everywhere; `met` says whether the target holds. A figure is measured by repeating
 * both sides (alternating, after a warm-up); `value` and `baselineValue` are the medians, and
 * `samples` keeps min, median and max of each side.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";

export type Database = "pglite" | "postgres";

export interface Spread {
  readonly min: number;
  readonly median: number;
  readonly max: number;
  /** How many samples. */
  readonly n: number;
}

export interface BenchRun {
  readonly name: string;
  readonly database: Database;
  /** Ours: the median of the samples (or the one measurement, for a size). */
  readonly value: number;
  readonly unit: string;
  /** What the baseline is, in words; null when the figure has none. */
  readonly baseline: string | null;
  readonly baselineValue: number | null;
  /** Higher is better: ours / baseline for throughputs, baseline / ours for latencies. */
  readonly ratio: number | null;
  /** The target, in words ("ratio ≥ 0.5", "p99 ≤ 150 ms"). */
  readonly target: string;
  readonly met: boolean;
  readonly notes: string;
  readonly samples?: { readonly ours: Spread; readonly baseline?: Spread };
  /** Further figures of the same run (p50/p99, CPU, sizes), each with its unit in the key. */
  readonly details?: Readonly<Record<string, number | string>>;
}

/** Options every figure gets. */
export interface BenchContext {
  readonly database: Database;
  /** A scratch Postgres database's URL (database "postgres"); undefined on PGlite. */
  readonly databaseUrl: string | undefined;
  /** `pnpm bench --quick`: every figure at a smaller size, to check that it works. */
  readonly quick: boolean;
}

export const round = (n: number, digits = 2): number => {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
};

/** The q-quantile (0..1) of sorted numbers, nearest rank. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil(q * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))] as number;
}

export function spread(samples: readonly number[]): Spread {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    min: sorted[0] ?? Number.NaN,
    median: quantile(sorted, 0.5),
    max: sorted.at(-1) ?? Number.NaN,
    n: sorted.length,
  };
}

/**
 * Runs `ours` and `baseline` alternately: `warmup` rounds not counted, then `rounds` rounds,
 * each side's sample being what its function returns (a rate or a duration). Alternating
 * spreads load from elsewhere on the machine over both sides alike.
 */
export async function alternate(
  rounds: number,
  warmup: number,
  ours: () => Promise<number>,
  baseline: () => Promise<number>,
): Promise<{ ours: number[]; baseline: number[] }> {
  for (let i = 0; i < warmup; i++) {
    await ours();
    await baseline();
  }
  const out = { ours: [] as number[], baseline: [] as number[] };
  for (let i = 0; i < rounds; i++) {
    // Which side goes first alternates too, so neither always runs right after the other.
    if (i % 2 === 0) {
      out.ours.push(await ours());
      out.baseline.push(await baseline());
    } else {
      out.baseline.push(await baseline());
      out.ours.push(await ours());
    }
  }
  return out;
}

/**
 * A figure with a baseline, from both sides' samples. `higher`: "better" for throughputs
 * (ratio = ours / baseline), "worse" for latencies (ratio = baseline / ours).
 */
export function compared(
  fields: {
    name: string;
    database: Database;
    unit: string;
    baseline: string;
    target: string;
    notes: string;
    details?: Record<string, number | string>;
  },
  samples: { ours: number[]; baseline: number[] },
  higher: "better" | "worse",
  /** Whether the target holds, given the ratio and our spread. */
  meets: (ratio: number, ours: Spread) => boolean,
): BenchRun {
  const ours = spread(samples.ours);
  const baseline = spread(samples.baseline);
  const ratio = higher === "better" ? ours.median / baseline.median : baseline.median / ours.median;
  return {
    ...fields,
    value: round(ours.median, 3),
    baselineValue: round(baseline.median, 3),
    ratio: round(ratio, 3),
    met: meets(ratio, ours),
    samples: { ours, baseline },
  };
}

/** What the machine is, for the file (a figure compares only within one run on it). */
export function machine(): Record<string, string | number> {
  let chromium = "not found";
  try {
    chromium = execFileSync("/usr/bin/chromium", ["--version"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {}
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? "",
    memory: `${Math.round(totalmem() / 2 ** 30)} GiB`,
    node: process.version,
    chromium,
  };
}

const shown = (n: number | null | undefined, digits = 2) =>
  n === null || n === undefined || Number.isNaN(n) ? "" : String(round(n, digits));

/** The printed table: one line per run, with min/median/max of ours and of the baseline. */
export function printTable(runs: readonly BenchRun[]): void {
  console.table(
    runs.map((r) => ({
      name: r.name,
      database: r.database,
      value: `${shown(r.value)} ${r.unit}`,
      "ours min/med/max": r.samples
        ? `${shown(r.samples.ours.min)} / ${shown(r.samples.ours.median)} / ${shown(r.samples.ours.max)}`
        : "",
      baseline: shown(r.baselineValue),
      "baseline min/med/max": r.samples?.baseline
        ? `${shown(r.samples.baseline.min)} / ${shown(r.samples.baseline.median)} / ${shown(r.samples.baseline.max)}`
        : "",
      ratio: shown(r.ratio),
      target: r.target,
      met: r.met ? "yes" : "NO",
    })),
  );
  for (const r of runs) {
    const details = r.details
      ? Object.entries(r.details)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ")
      : "";
    console.log(`${r.name} (${r.database}): ${[details, r.notes].filter(Boolean).join("; ")}`);
  }
}

/** Writes bench-results.json at the repository root; returns its path. */
export function writeResults(runs: readonly BenchRun[], extra: Record<string, unknown> = {}) {
  const file = join(import.meta.dirname, "..", "..", "bench-results.json");
  writeFileSync(file, `${JSON.stringify({ machine: machine(), ...extra, runs }, null, 2)}\n`);
  return file;
}
