/**
 * Hybrid logical clock (Kulkarni et al.): timestamps that follow wall-clock time when clocks
 * agree, and still respect causality (a receiver always stamps after what it has seen) when
 * they do not.
 *
 * Wire format: `<unix ms, 15 digits>:<counter, 5 digits>:<node id>`, e.g.
 * `001763772000000:00000:dev-a`. The two numbers are fixed width, so plain string comparison
 * (JS `<`, or Postgres text under `COLLATE "C"`) is the order (ms, counter, node). The node id
 * makes stamps from different nodes distinct, so equal stamps mean "the same write".
 *
 * Pure: the wall clock is always an argument, never read here.
 */

export type Hlc = string & { readonly __brand: "Hlc" };

export interface HlcParts {
  readonly ms: number;
  readonly counter: number;
  readonly node: string;
}

/**
 * A node's clock: the greatest timestamp it has issued or received, with its own node id.
 * A plain JSON object so a device can persist it as is; persist it after every `tick` and
 * `receive`, or a restarted device could re-issue stamps it has already used.
 */
export type Clock = HlcParts;

export const maxHlcMs = 999_999_999_999_999;
export const maxHlcCounter = 99_999;
/** Default tolerance of the server for stamps ahead of its own clock. */
export const defaultMaxAheadMs = 60_000;

const nodeIdPattern = /^[A-Za-z0-9_-]{1,64}$/;
const msPattern = /^\d{15}$/;
const counterPattern = /^\d{5}$/;

export const isNodeId = (node: string): boolean => nodeIdPattern.test(node);

/** Throws RangeError for parts outside the format: a malformed stamp would break ordering. */
export function formatHlc(parts: HlcParts): Hlc {
  const { ms, counter, node } = parts;
  if (!Number.isSafeInteger(ms) || ms < 0 || ms > maxHlcMs) {
    throw new RangeError(`HLC ms out of range: ${ms}`);
  }
  if (!Number.isSafeInteger(counter) || counter < 0 || counter > maxHlcCounter) {
    throw new RangeError(`HLC counter out of range: ${counter}`);
  }
  if (!isNodeId(node)) throw new RangeError(`invalid HLC node id: ${JSON.stringify(node)}`);
  return `${String(ms).padStart(15, "0")}:${String(counter).padStart(5, "0")}:${node}` as Hlc;
}

const hlcPattern = /^(\d{15}):(\d{5}):([A-Za-z0-9_-]{1,64})$/;

export function parseHlc(s: string): { value: HlcParts } | { error: string } {
  // One pattern for the well-formed stamp (every pushed change has one); the
  // checks part by part only to say what is wrong.
  const m = hlcPattern.exec(s);
  if (m !== null) return { value: { ms: Number(m[1]), counter: Number(m[2]), node: m[3] ?? "" } };
  const parts = s.split(":");
  if (parts.length !== 3) return { error: "HLC must be <ms>:<counter>:<node>" };
  const [ms = "", counter = ""] = parts;
  if (!msPattern.test(ms)) return { error: "HLC ms must be 15 digits" };
  if (!counterPattern.test(counter)) return { error: "HLC counter must be 5 digits" };
  return { error: "HLC node id must be 1-64 of [A-Za-z0-9_-]" };
}

/** Narrows a string to Hlc after checking the format (for stamps read from the wire). */
export const isHlc = (s: string): s is Hlc => "value" in parseHlc(s);

/** The parts of a well-formed stamp; the brand vouches for the shape, so no checks. */
function partsOf(hlc: Hlc): HlcParts {
  return {
    ms: Number(hlc.slice(0, 15)),
    counter: Number(hlc.slice(16, 21)),
    node: hlc.slice(22),
  };
}

export const hlcMs = (hlc: Hlc): number => Number(hlc.slice(0, 15));

export const compareHlc = (a: Hlc, b: Hlc): -1 | 0 | 1 => (a < b ? -1 : a > b ? 1 : 0);

/** Throws RangeError for an invalid node id. */
export function createClock(node: string): Clock {
  if (!isNodeId(node)) throw new RangeError(`invalid HLC node id: ${JSON.stringify(node)}`);
  return { ms: 0, counter: 0, node };
}

/** Wall time as whole ms; a non-finite time is a caller bug that would corrupt the clock. */
function wallMs(nowMs: number): number {
  if (!Number.isFinite(nowMs)) throw new RangeError(`wall clock is not a number: ${nowMs}`);
  return Math.floor(nowMs);
}

/**
 * Carry a counter that ran past 5 digits into ms: (ms + 1, 0) still sorts after (ms, 99999),
 * at the price of running up to 1 ms ahead of the wall clock.
 */
function carry(ms: number, counter: number, node: string): Clock {
  return counter > maxHlcCounter ? { ms: ms + 1, counter: 0, node } : { ms, counter, node };
}

/**
 * Stamp a local event or send. The result is strictly greater than every stamp this clock has
 * issued or received, whatever the wall clock does (it may jump backwards). Fractional wall
 * times (a clock corrected by a measured offset) are floored; a non-finite one throws RangeError.
 */
export function tick(clock: Clock, nowMs: number): { clock: Clock; hlc: Hlc } {
  const now = wallMs(nowMs);
  const next =
    now > clock.ms
      ? { ms: now, counter: 0, node: clock.node }
      : carry(clock.ms, clock.counter + 1, clock.node);
  return { clock: next, hlc: formatHlc(next) };
}

/**
 * Take in a stamp seen from elsewhere, so that every later `tick` sorts after it. The node id
 * stays the local one. No guard against a remote stamp far in the future: the server refuses
 * those (`isTooFarAhead`), so every stamp a device receives was within the allowance when the
 * server accepted it.
 */
export function receive(clock: Clock, remote: Hlc, nowMs: number): Clock {
  const r = partsOf(remote);
  const now = wallMs(nowMs);
  const ms = Math.max(clock.ms, r.ms, now);
  let counter: number;
  if (ms === clock.ms && ms === r.ms) counter = Math.max(clock.counter, r.counter) + 1;
  else if (ms === clock.ms) counter = clock.counter + 1;
  else if (ms === r.ms) counter = r.counter + 1;
  else counter = 0;
  return carry(ms, counter, clock.node);
}

/**
 * The server's check: a stamp more than `maxAheadMs` ahead of its clock is refused, so one
 * device with a wrong clock cannot win every last-writer-wins comparison for the future.
 */
export const isTooFarAhead = (
  hlc: Hlc,
  serverNowMs: number,
  maxAheadMs: number = defaultMaxAheadMs,
): boolean => hlcMs(hlc) - serverNowMs > maxAheadMs;
