import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Hlc } from "./hlc.ts";
import { formatHlc } from "./hlc.ts";
import type { OrSetState } from "./or-set.ts";
import {
  emptyOrSet,
  joinOrSets,
  orSetAfter,
  orSetFromPatch,
  orSetTags,
  orSetValues,
  parseOrSetPatch,
  unreceivedTags,
} from "./or-set.ts";

const h = (ms: number, node = "a", counter = 0): Hlc => formatHlc({ ms, counter, node });

describe("parseOrSetPatch", () => {
  it("accepts adds, removes of HLC tags, and an empty patch", () => {
    const patch = { add: ["p1"], remove: [h(1)] };
    expect(parseOrSetPatch(patch)).toEqual({ value: patch });
    expect(parseOrSetPatch({})).toEqual({ value: {} });
  });

  it.each([
    ["an array", ["p1"]],
    ["null", null],
    ["a string", "p1"],
    ["an unknown key", { put: ["p1"] }],
    ["a non-array add", { add: "p1" }],
    ["a non-string element", { add: [1] }],
    ["a remove that is not an HLC", { remove: ["p1"] }],
  ])("rejects %s", (_, value) => {
    expect(parseOrSetPatch(value)).toHaveProperty("error");
  });
});

describe("or-set", () => {
  it("tags every added element with the change's HLC, once per value", () => {
    expect(orSetFromPatch({ add: ["p2", "p1", "p2"] }, h(5))).toEqual({
      adds: [
        { tag: h(5), value: "p1" },
        { tag: h(5), value: "p2" },
      ],
      removed: [],
    });
  });

  it("a removal takes out exactly the tags it names", () => {
    const added = orSetFromPatch({ add: ["p1"] }, h(1));
    const removed = joinOrSets(added, orSetFromPatch({ remove: [h(1)] }, h(2)));
    expect(orSetValues(removed)).toEqual([]);
    expect(removed.removed).toEqual([h(1)]);
  });

  it("an add concurrent with a remove of another tag survives", () => {
    const first = orSetFromPatch({ add: ["p1"] }, h(1));
    const removeFirst = orSetFromPatch({ remove: [h(1)] }, h(3, "b"));
    const addAgain = orSetFromPatch({ add: ["p1"] }, h(2, "c"));
    const merged = joinOrSets(joinOrSets(first, removeFirst), addAgain);
    expect(orSetValues(merged)).toEqual(["p1"]);
    expect(orSetTags(merged, "p1")).toEqual([h(2, "c")]);
  });

  it("an add delivered after its removal is not resurrected", () => {
    const removal = orSetFromPatch({ remove: [h(1)] }, h(2));
    const lateAdd = orSetFromPatch({ add: ["p1"] }, h(1));
    expect(orSetValues(joinOrSets(removal, lateAdd))).toEqual([]);
  });

  it("lists each value once, in order of its first tag, then by value", () => {
    const state: OrSetState = [
      orSetFromPatch({ add: ["z"] }, h(1)),
      orSetFromPatch({ add: ["b", "a"] }, h(2)),
      orSetFromPatch({ add: ["z"] }, h(3)),
    ].reduce(joinOrSets, emptyOrSet());
    expect(orSetValues(state)).toEqual(["z", "a", "b"]);
    expect(orSetTags(state, "z")).toEqual([h(1), h(3)]);
  });

  const tagArb = fc
    .record({ ms: fc.integer({ min: 1, max: 3 }), node: fc.constantFrom("a", "b") })
    .map(({ ms, node }) => h(ms, node));
  const stateArb = fc
    .array(
      fc.record({
        tag: tagArb,
        add: fc.subarray(["p1", "p2", "p3"]),
        remove: fc.array(tagArb, { maxLength: 2 }),
      }),
      { maxLength: 5 },
    )
    .map((patches) =>
      patches
        .map(({ tag, ...patch }) => orSetFromPatch(patch, tag))
        .reduce(joinOrSets, emptyOrSet()),
    );

  const patchArb = fc.record({
    tag: tagArb,
    add: fc.subarray(["p1", "p2", "p3"]),
    remove: fc.array(tagArb, { maxLength: 2 }),
  });

  it("orSetAfter is the join with the change's own state, and counts what the set stores", () => {
    fc.assert(
      fc.property(stateArb, patchArb, (before, { tag, ...patch }) => {
        const after = orSetAfter(before, patch, tag);
        expect(after).toEqual(joinOrSets(before, orSetFromPatch(patch, tag)));
        // One entry per (tag, value), so no more entries than `before` plus the patch's adds.
        expect(after.adds.length).toBeLessThanOrEqual(before.adds.length + patch.add.length);
      }),
    );
    expect(orSetAfter(undefined, { add: ["p1"] }, h(1))).toEqual(
      orSetFromPatch({ add: ["p1"] }, h(1)),
    );
    // The same value added under three stamps is stored three times.
    const thrice = [h(1), h(2), h(3)].reduce(
      (s: OrSetState, tag) => orSetAfter(s, { add: ["p1"] }, tag),
      emptyOrSet(),
    );
    expect(thrice.adds).toHaveLength(3);
    expect(orSetValues(thrice)).toEqual(["p1"]);
  });

  it("unreceivedTags names the removal's tags the set neither holds nor has removed", () => {
    fc.assert(
      fc.property(stateArb, fc.array(tagArb, { maxLength: 4 }), (state, remove) => {
        const known = new Set([...state.adds.map((a) => a.tag), ...state.removed]);
        expect(unreceivedTags(state, remove)).toEqual(
          remove.flatMap((tag, i) => (known.has(tag) ? [] : [i])),
        );
      }),
    );
    const state = orSetAfter(orSetFromPatch({ add: ["p1", "p2"] }, h(1)), { remove: [h(1)] }, h(2));
    const held = orSetAfter(state, { add: ["p3"] }, h(3));
    expect(unreceivedTags(held, [h(3), h(1), h(9), h(2)])).toEqual([2, 3]);
    expect(unreceivedTags(undefined, [h(1)])).toEqual([0]);
    expect(unreceivedTags(undefined, [])).toEqual([]);
  });

  it("join is commutative, associative and idempotent", () => {
    fc.assert(
      fc.property(stateArb, stateArb, stateArb, (a, b, c) => {
        expect(joinOrSets(a, b)).toEqual(joinOrSets(b, a));
        expect(joinOrSets(joinOrSets(a, b), c)).toEqual(joinOrSets(a, joinOrSets(b, c)));
        expect(joinOrSets(a, a)).toEqual(a);
      }),
    );
  });
});
