/**
 * Re-stamping the outbox (DESIGN.md §4): the server refuses stamps more than 60 s ahead of its
 * clock. Such stamps were never accepted anywhere, so the device gives those changes new stamps:
 * it rebuilds its clock from every stamp that may have been accepted (the greatest it pulled or
 * had acknowledged, and the outbox stamps that are not stale; never the refused ones, since
 * `receive` cannot move a clock back) and ticks again with its corrected wall clock, in outbox
 * order. An OR-set removal naming the tag of a re-stamped add is renamed with it.
 */
import type { Change } from "./change.ts";
import { entities } from "./entities.ts";
import { type Clock, createClock, type Hlc, isTooFarAhead, receive, tick } from "./hlc.ts";
import type { Values } from "./merge.ts";
import type { OrSetPatch } from "./or-set.ts";

export interface RestampInput {
  /** The outbox in order. */
  readonly changes: readonly Change[];
  readonly node: string;
  /** The server's time as last measured. */
  readonly serverTimeMs: number;
  /** What the device stamps with: its wall clock corrected by the measured offset. */
  readonly stampMs: number;
  /** The greatest stamp that may have been accepted (pulled or acknowledged). */
  readonly maxSeen: Hlc | undefined;
}

export interface RestampResult {
  /** The outbox in the same order, stale changes re-stamped. */
  readonly changes: Change[];
  /** old stamp → new stamp; empty when nothing was stale (then `clock` is undefined). */
  readonly renamed: Map<Hlc, Hlc>;
  readonly clock: Clock | undefined;
}

export function restamp(input: RestampInput): RestampResult {
  const stale = (c: Change) => isTooFarAhead(c.hlc, input.serverTimeMs);
  const renamed = new Map<Hlc, Hlc>();
  if (!input.changes.some(stale)) return { changes: [...input.changes], renamed, clock: undefined };
  let clock = createClock(input.node);
  const keep = input.changes.filter((c) => !stale(c)).map((c) => c.hlc);
  for (const hlc of input.maxSeen === undefined ? keep : [input.maxSeen, ...keep]) {
    clock = receive(clock, hlc, input.stampMs);
  }
  const changes = input.changes.map((change) => {
    if (!stale(change)) return change;
    const next = tick(clock, input.stampMs);
    clock = next.clock;
    renamed.set(change.hlc, next.hlc);
    return change;
  });
  // Renaming after all stamps are known: a removal may name an add re-stamped after it.
  return {
    changes: changes.map((c) => {
      const hlc = renamed.get(c.hlc);
      const payload = renameTags(c, renamed);
      return hlc === undefined && payload === c.payload ? c : { ...c, hlc: hlc ?? c.hlc, payload };
    }),
    renamed,
    clock,
  };
}

/** The payload with removed OR-set tags renamed; the same object when nothing was renamed. */
function renameTags(change: Change, renamed: ReadonlyMap<Hlc, Hlc>): Values {
  const spec = entities[change.entity];
  let payload: Values | undefined;
  for (const [column, value] of Object.entries(change.payload)) {
    if (spec.columns[column]?.type !== "orset") continue;
    const patch = value as OrSetPatch;
    if (patch.remove === undefined || !patch.remove.some((t) => renamed.has(t as Hlc))) continue;
    payload ??= { ...change.payload };
    payload[column] = { ...patch, remove: patch.remove.map((t) => renamed.get(t as Hlc) ?? t) };
  }
  return payload ?? change.payload;
}
