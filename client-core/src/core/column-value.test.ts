import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { errorOf, fakeContext } from "../testing/command-context.ts";
import {
  maxTextLength,
  numberLimits,
  numberRuleBreak,
  numberRuleText,
  orSetPatchError,
  parseColumnValue,
} from "./column-value.ts";
import { createApiary, updateApiary } from "./commands/apiary.ts";
import { createHive, updateHive } from "./commands/hive.ts";
import type { ColumnSpec, EntityName } from "./entities.ts";
import { entities, entityNames, maxPhotoBytes, photoPrefix } from "./entities.ts";
import { formatHlc } from "./hlc.ts";
import { emptyOrSet, type OrSetState, orSetAfter } from "./or-set.ts";
import { parseWireChange } from "./validate-change.ts";

describe("parseColumnValue: a text column with element rules (a single photo)", () => {
  const photo: ColumnSpec = {
    type: "text",
    elementPrefix: photoPrefix,
    elementMaxBytes: maxPhotoBytes,
  };
  const big = (bytes: number): string => photoPrefix + "a".repeat(bytes - photoPrefix.length);

  it("holds a data URL of up to the element size, beyond the 10 000 characters of text", () => {
    expect(parseColumnValue(photo, big(maxPhotoBytes), false)).toEqual({
      value: big(maxPhotoBytes),
    });
    expect(parseColumnValue(photo, big(maxPhotoBytes + 1), false)).toHaveProperty("error");
  });

  it('takes "" as no photo unless the column is required, and refuses other URLs', () => {
    expect(parseColumnValue(photo, "", false)).toEqual({ value: "" });
    expect(parseColumnValue(photo, "", true)).toHaveProperty("error");
    expect(parseColumnValue(photo, "https://example.com/a.jpg", false)).toEqual({
      error: 'must start with "data:image/"',
    });
  });
});

// ---- The value rules of the registry (issue 24): one checker, one message on every path ----

/** Every numeric column and its range, as the registry must hold it ("> 0": `positive`). */
const numericRanges: Record<string, readonly [number | "> 0", number]> = {
  "apiary.lat": [-90, 90],
  "apiary.lng": [-180, 180],
  "hive.boxes": [0, 20],
  "inspection.weight_kg": [0, 500],
  "inspection.temp_hive": [-40, 70],
  "inspection.temp_outside": [-50, 60],
  "inspection.humidity_hive": [0, 100],
  "inspection.humidity_outside": [0, 100],
  "inspection.frames": [0, 60],
  "inspection.brood_frames": [0, 60],
  "inspection.calmness": [0, 4],
  "inspection.queen_cells": [0, 99],
  "queen.year": ["> 0", 9999],
  "harvest.amount_kg": ["> 0", Number.MAX_VALUE],
  "harvest.water_content": [0, 100],
  "event.amount_kg": [0, Number.MAX_VALUE],
};

const columnsOf = (types: readonly ColumnSpec["type"][]) =>
  entityNames.flatMap((e) =>
    Object.entries(entities[e].columns)
      .filter(([, spec]) => types.includes(spec.type))
      .map(([column, spec]) => [`${e}.${column}`, spec] as const),
  );

describe("the registry's value rules", () => {
  it("gives every numeric column its range, and no other column one", () => {
    const held = Object.fromEntries(
      columnsOf(["int", "float"]).map(([name, spec]) => [
        name,
        [spec.positive ? "> 0" : spec.min, spec.max],
      ]),
    );
    expect(held).toEqual(numericRanges);
    for (const [name, spec] of columnsOf(["text", "bool", "enum", "timestamp", "id", "orset"])) {
      expect([spec.min, spec.max, spec.positive], name).toEqual([undefined, undefined, undefined]);
    }
  });

  it("lets every column that may be left unset hold 0 (contract §2.1.5: left out is 0)", () => {
    for (const [name, spec] of columnsOf(["int", "float"])) {
      const [entity = "", column = ""] = name.split(".");
      const required = entities[entity as EntityName].required.includes(column);
      if (!required && !spec.positive) expect(numberRuleBreak(spec, 0), name).toBeUndefined();
    }
  });

  it("gives every text column a length, and a photo column its size in bytes instead", () => {
    for (const [name, spec] of columnsOf(["text"])) {
      // A TREATMENT event's detail holds eight texts of the treatment, JSON-escaped (issue 26).
      if (name === "event.detail_json") expect(spec.maxLength).toBe(8 * 6 * maxTextLength + 1000);
      else if (spec.elementPrefix === undefined) expect(spec.maxLength, name).toBe(maxTextLength);
      else expect([spec.maxLength, spec.elementMaxBytes], name).toEqual([undefined, maxPhotoBytes]);
    }
  });
});

describe("numberRuleBreak and numberRuleText: the one checker of a number", () => {
  const { apiary, hive, queen } = entities;
  const col = (name: string): ColumnSpec => {
    const [entity = "", column = ""] = name.split(".");
    return entities[entity as EntityName].columns[column] as ColumnSpec;
  };
  const cases: [string, number, string | undefined][] = [
    ["apiary.lat", 48.1, undefined],
    ["apiary.lat", 90, undefined],
    ["apiary.lat", 1e308, "must be between -90 and 90"],
    ["apiary.lat", -90.000001, "must be between -90 and 90"],
    ["apiary.lng", 180.5, "must be between -180 and 180"],
    ["apiary.lat", Number.NaN, "must be a finite number"],
    ["apiary.lat", Number.POSITIVE_INFINITY, "must be a finite number"],
    ["hive.boxes", -5, "must be between 0 and 20"],
    ["hive.boxes", 21, "must be between 0 and 20"],
    ["hive.boxes", 1.5, "must be an integer"],
    ["hive.boxes", 2 ** 31, "must be an integer between -2147483648 and 2147483647"],
    ["inspection.calmness", 5, "must be between 0 and 4"],
    ["inspection.humidity_hive", 100.5, "must be between 0 and 100"],
    ["queen.year", 0, "must be greater than 0"],
    ["queen.year", 10_000, "must be at most 9999"],
    ["harvest.amount_kg", -2, "must be greater than 0"],
    ["harvest.amount_kg", 1.7e308, undefined],
  ];

  it.each(cases)("%s holding %d: %s", (name, value, phrase) => {
    const spec = col(name);
    const broken = numberRuleBreak(spec, value);
    expect(broken === undefined ? undefined : numberRuleText(broken)).toBe(phrase);
    // The checker Push and the commands call says the same.
    const parsed = parseColumnValue(spec, value, false);
    expect("error" in parsed ? parsed.error : undefined).toBe(phrase);
  });

  it("says which rule broke, as data, for the app to word in its language", () => {
    expect(numberRuleBreak(hive.columns.boxes as ColumnSpec, -5)).toEqual({
      rule: "range",
      min: 0,
      max: 20,
    });
    expect(numberRuleBreak(queen.columns.year as ColumnSpec, -1)).toEqual({ rule: "positive" });
    expect(numberRuleText({ rule: "range", min: 2 })).toBe("must be at least 2");
  });

  it("gives a form the limits and the step of a column", () => {
    expect(numberLimits(apiary.columns.lat as ColumnSpec)).toEqual({
      min: -90,
      max: 90,
      step: "any",
    });
    expect(numberLimits(hive.columns.boxes as ColumnSpec)).toEqual({ min: 0, max: 20, step: 1 });
    expect(numberLimits(queen.columns.year as ColumnSpec)).toEqual({ min: 0, max: 9999, step: 1 });
  });
});

describe("one message for a value on every path (the security review's cases)", () => {
  const ctx = fakeContext();
  const messageOf = (fn: () => unknown): string => {
    const e = errorOf(fn);
    expect(e.code).toBe("invalid");
    return e.message;
  };
  const pushReason = (entity: EntityName, payload: Record<string, unknown>): string => {
    const r = parseWireChange(
      {
        entity,
        entityId: "e1",
        scopeId: "a1",
        op: 1,
        payloadJson: JSON.stringify(payload),
        hlc: "001767225600000:00000:n1",
      },
      "u1",
      0,
    );
    if (!("error" in r)) throw new Error("expected a rejection");
    return r.error.reason;
  };

  it("refuses apiary lat 1e308 in CreateApiary, UpdateApiary and Push with the same words", () => {
    const input = { name: "Moon", address: "", lat: 1e308, lng: 0 };
    const phrase = "must be between -90 and 90";
    expect(messageOf(() => createApiary(ctx, input))).toBe(`lat ${phrase}`);
    expect(messageOf(() => updateApiary(ctx, { id: "a1", liveHives: 0 }, "a1", input))).toBe(
      `lat ${phrase}`,
    );
    expect(pushReason("apiary", { lat: 1e308 })).toBe(`apiary.lat ${phrase}`);
  });

  it("refuses hive boxes -5 in CreateHive, UpdateHive and Push with the same words", () => {
    const fields = { name: "N", type: 0, boxes: -5, colonyOrigin: "", note: "", qrCode: "" };
    const phrase = "must be between 0 and 20";
    expect(
      messageOf(() =>
        createHive(
          ctx,
          { id: "a1" },
          { ...fields, apiaryId: "a1", photo: "", date: "2026-05-01T00:00:00Z" },
        ),
      ),
    ).toBe(`boxes ${phrase}`);
    const current = {
      id: "h1",
      name: "N",
      apiaryId: "a1",
      status: 1,
      queenId: "",
      openPlacements: [],
    };
    expect(messageOf(() => updateHive(ctx, current, { ...fields, id: "h1", status: 1 }))).toBe(
      `hive.boxes ${phrase}`,
    );
    expect(pushReason("hive", { boxes: -5 })).toBe(`hive.boxes ${phrase}`);
  });
});

describe("orSetPatchError: what an orset column holds after a patch", () => {
  const spec: ColumnSpec = { type: "orset", maxElements: 3 };
  const h = (ms: number, node = "a") => formatHlc({ ms, counter: 0, node });
  const tagArb = fc
    .record({ ms: fc.integer({ min: 1, max: 6 }), node: fc.constantFrom("a", "b") })
    .map(({ ms, node }) => h(ms, node));
  const patchArb = fc.record({
    tag: tagArb,
    add: fc.array(fc.constantFrom("p1", "p2"), { maxLength: 3 }),
    remove: fc.array(tagArb, { maxLength: 2 }),
  });

  it("accepted patches never grow a set past its cap, nor name a tag it never received", () => {
    fc.assert(
      fc.property(fc.array(patchArb, { maxLength: 12 }), (patches) => {
        let state: OrSetState = emptyOrSet();
        for (const { tag, ...patch } of patches) {
          if (orSetPatchError(spec, state, patch, tag) !== undefined) continue;
          const known = new Set([...state.adds.map((a) => a.tag), ...state.removed]);
          expect(patch.remove.every((t) => known.has(t))).toBe(true);
          const after = orSetAfter(state, patch, tag);
          expect(after.adds.length).toBeLessThanOrEqual(Math.max(3, state.adds.length));
          state = after;
        }
        // Starting empty, the set never holds more entries than the cap.
        expect(state.adds.length).toBeLessThanOrEqual(3);
      }),
    );
  });

  it("counts the same element under new tags, and lets a pure removal of held tags pass", () => {
    let state: OrSetState = emptyOrSet();
    for (const ms of [1, 2, 3]) {
      expect(orSetPatchError(spec, state, { add: ["p1"] }, h(ms))).toBeUndefined();
      state = orSetAfter(state, { add: ["p1"] }, h(ms));
    }
    expect(orSetPatchError(spec, state, { add: ["p1"] }, h(4))).toBe(
      "holds at most 3 elements, an element added twice counting twice (would hold 4)",
    );
    expect(orSetPatchError(spec, state, { remove: [h(1), h(2)] }, h(4))).toBeUndefined();
    expect(orSetPatchError(spec, state, { remove: [h(1)], add: ["p2"] }, h(4))).toBeUndefined();
    expect(orSetPatchError(spec, state, { remove: [h(9)] }, h(10))).toBe(
      `remove[0] "${h(9)}" is not the tag of an add this set received: a removal names only adds it observed`,
    );
  });
});
