import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Hlc } from "./hlc.ts";
import { formatHlc } from "./hlc.ts";
import type { OrSetState } from "./or-set.ts";
import {
  emptyOrSet,
  joinOrSets,
  orSetFromPatch,
  orSetTags,
  orSetValues,
  parseOrSetPatch,
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
