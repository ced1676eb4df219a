import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Change } from "./change.ts";
import { entities } from "./entities.ts";
import { formatHlc, type Hlc } from "./hlc.ts";
import { applyChange, emptyRow, mergeRows, type RowState } from "./merge.ts";
import {
  eventInspectionId,
  heldUntilMs,
  outOfWindow,
  readingDateMs,
  readingsCutoffMs,
  stateChanges,
} from "./readings-window.ts";

const { inspection } = entities;
const state = (values: Record<string, unknown>): RowState => ({
  values,
  clock: {},
  deleted: false,
});
const reading = (date: string) => state({ hive_id: "h", date, weight_kg: 40.5 });
const visit = (date: string) => state({ hive_id: "h", date, weight_kg: 40.5, note: "queen seen" });

describe("readings window", () => {
  it("cuts at the start of the UTC day the given days back", () => {
    const now = Date.parse("2026-11-27T13:45:00Z");
    expect(new Date(readingsCutoffMs(now, 30)).toISOString()).toBe("2026-10-28T00:00:00.000Z");
    expect(new Date(readingsCutoffMs(now, 0)).toISOString()).toBe("2026-11-27T00:00:00.000Z");
    // The same all day long: Pulls of one day share a cutoff.
    expect(readingsCutoffMs(now + 9 * 3_600_000, 30)).toBe(readingsCutoffMs(now, 30));
  });

  it("dates a reading, never a visit or a row without a date", () => {
    expect(readingDateMs(reading("2026-01-02T03:00:00Z").values)).toBe(
      Date.parse("2026-01-02T03:00:00Z"),
    );
    expect(readingDateMs(visit("2026-01-02T03:00:00Z").values)).toBeUndefined();
    expect(readingDateMs({ weight_kg: 40 })).toBeUndefined();
    expect(readingDateMs(undefined)).toBeUndefined();
  });

  it("holds an entry only when its row was a reading before and after it, at the later date", () => {
    const old = "2026-01-01T00:00:00Z";
    const recent = "2026-11-20T00:00:00Z";
    // A new reading: its own date.
    expect(heldUntilMs(undefined, reading(old))).toBe(Date.parse(old));
    // A reading corrected: the later of the two dates.
    expect(heldUntilMs(reading(old), reading(recent))).toBe(Date.parse(recent));
    expect(heldUntilMs(reading(recent), reading(old))).toBe(Date.parse(recent));
    // A reading that becomes a visit, and a visit that becomes a reading: never held.
    expect(heldUntilMs(reading(old), visit(old))).toBeUndefined();
    expect(heldUntilMs(visit(old), reading(old))).toBeUndefined();
    expect(heldUntilMs(undefined, visit(old))).toBeUndefined();
    // A partial row (no date yet) is never held.
    expect(heldUntilMs(undefined, state({ weight_kg: 3 }))).toBeUndefined();
  });

  it("lets go of readings dated before the cutoff only", () => {
    const cutoff = Date.parse("2026-10-28T00:00:00Z");
    expect(outOfWindow(reading("2026-10-27T23:59:59Z").values, cutoff)).toBe(true);
    expect(outOfWindow(reading("2026-10-28T00:00:00Z").values, cutoff)).toBe(false);
    expect(outOfWindow(visit("2020-01-01T00:00:00Z").values, cutoff)).toBe(false);
  });

  it("finds the inspection of an INSPECTION event", () => {
    expect(eventInspectionId({ ref_entity: "inspection", ref_id: "i1" })).toBe("i1");
    expect(eventInspectionId({ ref_entity: "harvest", ref_id: "x" })).toBeUndefined();
    expect(eventInspectionId(undefined)).toBeUndefined();
  });

  // Row states built from random changes, and states merged into random replicas.
  const hlcArb = fc
    .record({
      ms: fc.integer({ min: 1, max: 4 }),
      counter: fc.integer({ min: 0, max: 1 }),
      node: fc.constantFrom("a", "b"),
    })
    .map(formatHlc);
  const scalarArb = fc.oneof(fc.constantFrom(null, true, "", "x"), fc.integer({ min: 0, max: 9 }));
  const changeArb = fc.record({
    op: fc.constantFrom<"upsert" | "delete">("upsert", "upsert", "upsert", "delete"),
    hlc: hlcArb,
    payload: fc.record(
      {
        hive_id: scalarArb,
        note: scalarArb,
        weight_kg: scalarArb,
        photo_keys: fc.record(
          { add: fc.subarray(["p1", "p2", "p3"]), remove: fc.array(hlcArb, { maxLength: 2 }) },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: [] },
    ),
  });
  const replay = (changes: readonly { op: "upsert" | "delete"; hlc: string; payload: object }[]) =>
    changes.reduce<RowState>(
      (row, c) =>
        applyChange(row, { ...c, hlc: c.hlc as Hlc, payload: { ...c.payload } }, inspection).row,
      emptyRow(),
    );
  const asChanges = (s: RowState): Change[] => stateChanges("inspection", "i1", "a1", s);
  const merged = (into: RowState, changes: readonly Change[]) =>
    changes.reduce((row, c) => applyChange(row, c, inspection).row, into);

  it("writes a state as changes whose merge, in any order and into any replica, is that state", () => {
    fc.assert(
      fc.property(
        fc.array(changeArb, { maxLength: 8 }),
        fc.array(changeArb, { maxLength: 4 }),
        fc.integer(),
        (history, other, seed) => {
          const s = replay(history);
          const changes = asChanges(s);
          // Shuffled by the seed: order does not matter.
          const shuffled = [...changes].sort(
            (a, b) => ((seed ^ a.hlc.length) % 3) - ((seed ^ b.hlc.length) % 3),
          );
          expect(merged(emptyRow(), shuffled)).toEqual(mergeRows(emptyRow(), s, inspection));
          // Into a replica that holds part of the history or other changes: the join.
          const replica = replay(other);
          expect(merged(replica, changes)).toEqual(mergeRows(replica, s, inspection));
        },
      ),
    );
  });
});
