import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { EntitySpec } from "./entities.ts";
import { entities } from "./entities.ts";
import type { Hlc } from "./hlc.ts";
import { formatHlc } from "./hlc.ts";
import type { ChangeInput, RowState } from "./merge.ts";
import { applyChange, changeToState, emptyRow, isComplete, mergeRows } from "./merge.ts";
import type { OrSetState } from "./or-set.ts";
import { orSetValues } from "./or-set.ts";

const hive = entities.hive;
const inspection = entities.inspection;

const h = (ms: number, node = "a", counter = 0): Hlc => formatHlc({ ms, counter, node });
const upsert = (hlc: Hlc, payload: Record<string, unknown>): ChangeInput => ({
  op: "upsert",
  hlc,
  payload,
});
const remove = (hlc: Hlc, payload: Record<string, unknown> = {}): ChangeInput => ({
  op: "delete",
  hlc,
  payload,
});

/** Applies changes in order to an empty replica. */
const replay = (changes: readonly ChangeInput[], spec: EntitySpec): RowState | undefined =>
  changes.reduce<RowState | undefined>((row, c) => applyChange(row, c, spec).row, undefined);

const photos = (row: RowState | undefined): string[] =>
  orSetValues((row?.values.photo_keys as OrSetState | undefined) ?? { adds: [], removed: [] });

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

describe("applyChange: scalar columns", () => {
  it("keeps a change for a row never seen, with only its columns", () => {
    const result = applyChange(undefined, upsert(h(1), { note: "x" }), hive);
    expect(result.row).toEqual({ values: { note: "x" }, clock: { note: h(1) }, deleted: false });
    expect(result.accepted).toEqual({ note: "x" });
    expect(result.changed).toBe(true);
    expect(isComplete(result.row, hive)).toBe(false);
  });

  it("a later write wins per column; writes to different columns both survive", () => {
    const row = replay(
      [
        upsert(h(1), { name: "A", note: "n1" }),
        upsert(h(3, "b"), { note: "n2" }),
        upsert(h(2, "c"), { boxes: 2 }),
      ],
      hive,
    );
    expect(row?.values).toEqual({ name: "A", note: "n2", boxes: 2 });
    expect(row?.clock).toEqual({ name: h(1), note: h(3, "b"), boxes: h(2, "c") });
  });

  it("an older write loses and reports the winning stamp", () => {
    const { row } = applyChange(undefined, upsert(h(5), { name: "new", note: "n" }), hive);
    const result = applyChange(row, upsert(h(3, "b"), { name: "old", boxes: 4 }), hive);
    expect(result.lost).toEqual(["name"]);
    expect(result.winningHlc).toBe(h(5));
    expect(result.accepted).toEqual({ boxes: 4 });
    expect(result.row.values).toEqual({ name: "new", note: "n", boxes: 4 });
  });

  it("reports the greatest winner when several columns lose", () => {
    const row = replay([upsert(h(5), { name: "x" }), upsert(h(7, "b"), { note: "y" })], hive);
    const result = applyChange(row, upsert(h(2), { name: "a", note: "b" }), hive);
    expect(result.lost.sort()).toEqual(["name", "note"]);
    expect(result.winningHlc).toBe(h(7, "b"));
    expect(result.changed).toBe(false);
  });

  it("a re-delivered change is a no-op", () => {
    const change = upsert(h(1), { name: "A", photo_keys: { add: ["p1"] } });
    const first = applyChange(undefined, change, inspection);
    const again = applyChange(first.row, change, inspection);
    expect(again).toEqual({
      row: first.row,
      accepted: {},
      deleteAccepted: false,
      lost: [],
      winningHlc: undefined,
      changed: false,
    });
  });

  it("equal stamps with different values resolve the same in either order", () => {
    const a = upsert(h(1), { name: "Alpha" });
    const b = upsert(h(1), { name: "Beta" });
    const ab = replay([a, b], hive);
    expect(ab).toEqual(replay([b, a], hive));
    expect(ab?.values.name).toBe("Beta");

    const loser = applyChange(replay([b], hive), a, hive);
    expect(loser.lost).toEqual(["name"]);
    expect(loser.winningHlc).toBe(h(1));
    const winner = applyChange(replay([a], hive), b, hive);
    expect(winner.accepted).toEqual({ name: "Beta" });
  });

  it("never mutates its inputs", () => {
    const current = deepFreeze(
      replay([upsert(h(1), { hive_id: "h", photo_keys: { add: ["p1"] } })], inspection),
    );
    const change = deepFreeze(upsert(h(2), { note: "n", photo_keys: { add: ["p2"] } }));
    expect(() => applyChange(current, change, inspection)).not.toThrow();
    const other = deepFreeze(changeToState(remove(h(3)), inspection));
    expect(() => current && mergeRows(current, other, inspection)).not.toThrow();
  });
});

describe("applyChange: delete", () => {
  it("a deleted row never comes back, yet later edits still merge into its columns", () => {
    const row = replay(
      [upsert(h(1), { name: "A" }), remove(h(2)), upsert(h(3), { name: "B" })],
      hive,
    );
    expect(row).toEqual({
      values: { name: "B" },
      clock: { name: h(3), _deleted: h(2) },
      deleted: true,
    });
  });

  it("a delete for a row never seen is kept as a tombstone", () => {
    const result = applyChange(undefined, remove(h(2)), hive);
    expect(result.deleteAccepted).toBe(true);
    expect(result.changed).toBe(true);
    expect(result.row).toEqual({ values: {}, clock: { _deleted: h(2) }, deleted: true });
  });

  it("a re-delivered or older delete is a no-op; a newer one moves the stamp", () => {
    const { row } = applyChange(undefined, remove(h(5)), hive);
    expect(applyChange(row, remove(h(5)), hive).changed).toBe(false);
    expect(applyChange(row, remove(h(4)), hive)).toMatchObject({ changed: false, row });
    const newer = applyChange(row, remove(h(6)), hive);
    expect(newer.deleteAccepted).toBe(true);
    expect(newer.row.clock._deleted).toBe(h(6));
  });
});

describe("applyChange: orset columns", () => {
  it("accepts only the adds and removes that are new", () => {
    const row = replay([upsert(h(1), { photo_keys: { add: ["p1"] } })], inspection);
    const result = applyChange(
      row,
      upsert(h(2), { photo_keys: { add: ["p2"], remove: [h(1), h(0)] } }),
      inspection,
    );
    expect(result.accepted).toEqual({ photo_keys: { add: ["p2"], remove: [h(0), h(1)] } });
    expect(photos(result.row)).toEqual(["p2"]);
    expect(result.lost).toEqual([]);
  });

  it("an add delivered after its removal is not resurrected, nor accepted", () => {
    const row = replay([upsert(h(2), { photo_keys: { remove: [h(1)] } })], inspection);
    const late = applyChange(row, upsert(h(1), { photo_keys: { add: ["p1"] } }), inspection);
    expect(photos(late.row)).toEqual([]);
    expect(late.changed).toBe(false);
  });

  it("an add concurrent with a remove of another tag survives", () => {
    const row = replay(
      [
        upsert(h(1), { photo_keys: { add: ["p1"] } }),
        upsert(h(3, "b"), { photo_keys: { remove: [h(1)] } }),
        upsert(h(2, "c"), { photo_keys: { add: ["p1"] } }),
      ],
      inspection,
    );
    expect(photos(row)).toEqual(["p1"]);
  });

  it("an empty patch leaves no trace", () => {
    const result = applyChange(undefined, upsert(h(1), { photo_keys: {} }), inspection);
    expect(result.row).toEqual(emptyRow());
    expect(result.changed).toBe(false);
  });

  it("a malformed patch throws instead of being dropped", () => {
    expect(() => applyChange(undefined, upsert(h(1), { photo_keys: ["p1"] }), inspection)).toThrow(
      TypeError,
    );
  });
});

describe("isComplete", () => {
  it("a row is complete once every required column has been written", () => {
    const partial = replay([upsert(h(2), { name: "A", note: "late edit" })], hive);
    expect(partial && isComplete(partial, hive)).toBe(false);
    const created = replay(
      [upsert(h(2), { name: "A", note: "late edit" }), upsert(h(1), { apiary_id: "ap", name: "" })],
      hive,
    );
    expect(created && isComplete(created, hive)).toBe(true);
    expect(created?.values.name).toBe("A");
  });
});

// Property tests. Few nodes, ms and counters, so that equal stamps (including the same stamp
// with different payloads, a misbehaving client) and removes of tags that were added are common.
const hlcArb = fc
  .record({
    ms: fc.integer({ min: 1, max: 3 }),
    counter: fc.integer({ min: 0, max: 1 }),
    node: fc.constantFrom("a", "b", "c"),
  })
  .map(formatHlc);
const scalarArb = fc.oneof(fc.constantFrom(null, true, false, "", "x", "y"), fc.integer());
const opArb = fc.constantFrom<ChangeInput["op"]>("upsert", "upsert", "upsert", "delete");

const hiveChangeArb: fc.Arbitrary<ChangeInput> = fc.record({
  op: opArb,
  hlc: hlcArb,
  payload: fc.record(
    { apiary_id: scalarArb, name: scalarArb, boxes: scalarArb, note: scalarArb },
    { requiredKeys: [] },
  ),
});
const inspectionChangeArb: fc.Arbitrary<ChangeInput> = fc.record({
  op: opArb,
  hlc: hlcArb,
  payload: fc.record(
    {
      hive_id: scalarArb,
      note: scalarArb,
      frames: scalarArb,
      photo_keys: fc.record(
        { add: fc.subarray(["p1", "p2", "p3"]), remove: fc.array(hlcArb, { maxLength: 2 }) },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: [] },
  ),
});

const cases: [string, EntitySpec, fc.Arbitrary<ChangeInput>][] = [
  ["hive", hive, hiveChangeArb],
  ["inspection", inspection, inspectionChangeArb],
];

describe.each(cases)("merge properties (%s)", (_, spec, changeArb) => {
  const changesArb = fc.array(changeArb, { maxLength: 8 });
  const stateArb = changesArb.map((changes) => replay(changes, spec) ?? emptyRow());
  const merge = (a: RowState, b: RowState): RowState => mergeRows(a, b, spec);

  it("mergeRows is commutative, associative and idempotent", () => {
    fc.assert(
      fc.property(stateArb, stateArb, stateArb, (a, b, c) => {
        expect(merge(a, b)).toEqual(merge(b, a));
        expect(merge(merge(a, b), c)).toEqual(merge(a, merge(b, c)));
        expect(merge(a, a)).toEqual(a);
      }),
    );
  });

  it("applyChange agrees with mergeRows of the change's state", () => {
    fc.assert(
      fc.property(fc.option(stateArb, { nil: undefined }), changeArb, (state, change) => {
        expect(applyChange(state, change, spec).row).toEqual(
          merge(state ?? emptyRow(), changeToState(change, spec)),
        );
      }),
    );
  });

  it("any order of a multiset of changes, with duplicates, gives the same state", () => {
    const deliveriesArb = fc
      .array(changeArb, { minLength: 1, maxLength: 10 })
      .chain((changes) =>
        fc
          .array(fc.constantFrom(...changes), { maxLength: 5 })
          .map((dups) => [...changes, ...dups]),
      )
      .chain((all) =>
        fc.tuple(
          fc.constant(all),
          fc.shuffledSubarray(all, { minLength: all.length, maxLength: all.length }),
        ),
      );
    fc.assert(
      fc.property(deliveriesArb, ([inOrder, shuffled]) => {
        expect(replay(shuffled, spec)).toEqual(replay(inOrder, spec));
      }),
    );
  });

  it("a row is deleted iff some delete was applied, under the greatest delete stamp", () => {
    fc.assert(
      fc.property(changesArb, (changes) => {
        const row = replay(changes, spec) ?? emptyRow();
        const deletes = changes.filter((c) => c.op === "delete").map((c) => c.hlc);
        expect(row.deleted).toBe(deletes.length > 0);
        expect(row.clock._deleted).toBe(deletes.sort().at(-1));
      }),
    );
  });

  it("a replica fed only the accepted parts ends equal to the replica that produced them", () => {
    fc.assert(
      fc.property(changesArb, (changes) => {
        let server: RowState | undefined;
        let device: RowState | undefined;
        for (const change of changes) {
          const result = applyChange(server, change, spec);
          server = result.row;
          if (!result.changed) continue;
          const fed: ChangeInput = {
            op: result.deleteAccepted ? "delete" : "upsert",
            hlc: change.hlc,
            payload: result.accepted,
          };
          device = applyChange(device, fed, spec).row;
          expect(device).toEqual(server);
        }
      }),
    );
  });

  it("re-applying any change to its own result changes nothing", () => {
    fc.assert(
      fc.property(stateArb, changeArb, (state, change) => {
        const once = applyChange(state, change, spec);
        const twice = applyChange(once.row, change, spec);
        expect(twice.changed).toBe(false);
        expect(twice.row).toEqual(once.row);
      }),
    );
  });
});
