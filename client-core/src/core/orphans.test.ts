import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fakeContext } from "../testing/command-context.ts";
import { isEntityId } from "./column-value.ts";
import { formatHlc, type Hlc } from "./hlc.ts";
import type { InvariantRow } from "./invariants.ts";
import { deletedKey, type Values } from "./merge.ts";
import {
  deletedAt,
  holdingApiaryId,
  holdingOf,
  repairHiveApiary,
  repairTask,
  restoredName,
} from "./orphans.ts";

const now = new Date("2026-05-20T10:00:00.000Z");
const ctx = () => fakeContext({ now, authorId: "user-1" });
const deleteMs = Date.parse("2026-05-10T08:00:00.000Z");
const old: Hlc = formatHlc({ ms: Date.parse("2026-01-01T00:00:00.000Z"), counter: 0, node: "d" });
const delStamp: Hlc = formatHlc({ ms: deleteMs, counter: 0, node: "d" });

function row(id: string, scopeId: string, values: Values, deleted = false): InvariantRow {
  const clock: Record<string, Hlc> = {};
  for (const column of Object.keys(values)) clock[column] = old;
  if (deleted) clock[deletedKey] = delStamp;
  return { id, scopeId, values, clock, deleted };
}

const apiary = (id: string, name: string, deleted: boolean) =>
  row(id, id, { name, address: "Lane 1", lat: 1, lng: 2 }, deleted);
const hive = (apiaryId: string, deleted = false) =>
  row("h1", apiaryId, { apiary_id: apiaryId, name: "Linden" }, deleted);
const task = (values: Values, deleted = false) =>
  row("t1", "a1", { title: "Feed", hive_id: "h1", ...values }, deleted);

describe("repairTask: no open task of a deleted hive", () => {
  it("tombstones an open task of a deleted hive, in the task's scope", () => {
    const changes = repairTask(ctx(), task({}), hive("a1", true));
    expect(changes).toMatchObject([
      { entity: "task", entityId: "t1", scopeId: "a1", op: "delete" },
    ]);
  });

  it("leaves done tasks, deleted tasks, tasks of live hives and of other hives", () => {
    expect(repairTask(ctx(), task({ done: true }), hive("a1", true))).toEqual([]);
    expect(repairTask(ctx(), task({}, true), hive("a1", true))).toEqual([]);
    expect(repairTask(ctx(), task({}), hive("a1"))).toEqual([]);
    expect(repairTask(ctx(), task({ hive_id: "h2" }), hive("a1", true))).toEqual([]);
    expect(repairTask(ctx(), task({}), undefined)).toEqual([]);
  });
});

describe("holdingApiaryId", () => {
  it("is a deterministic UUID (version 8) a change may carry, distinct per apiary and per level", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 100 }), fc.string(), (a, b) => {
        const id = holdingApiaryId(a);
        expect(id).toBe(holdingApiaryId(a));
        expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(isEntityId(id)).toBe(true);
        if (a !== b) expect(id).not.toBe(holdingApiaryId(b));
        expect(holdingApiaryId(id)).not.toBe(id);
      }),
    );
  });

  it("names the holding apiary after the deleted one, once", () => {
    expect(restoredName("Heath")).toBe("Heath (restored)");
    expect(restoredName("Heath (restored)")).toBe("Heath (restored)");
    expect(restoredName("x".repeat(10_000)).length).toBe(10_000);
  });
});

describe("repairHiveApiary: no live hive in a deleted apiary", () => {
  const placement = row("p1", "a1", {
    hive_id: "h1",
    apiary_id: "a1",
    started_at: "2026-05-01T00:00:00.000Z",
    ended_at: null,
  });
  const rows = { hive: hive("a1"), placements: [placement], queenIds: ["q1"] };

  it("moves the hive to a holding apiary created at the deleted one's place, when it was deleted", () => {
    const holding = holdingApiaryId("a1");
    const apiaries = new Map([["a1", apiary("a1", "Heath", true)]]);
    const changes = repairHiveApiary(ctx(), rows, apiaries);
    const at = new Date(deleteMs).toISOString();
    expect(changes.map((c) => [c.entity, c.entityId, c.scopeId])).toEqual([
      ["apiary", holding, holding],
      ["hive", "h1", holding],
      ["queen", "q1", holding],
      ["placement", "p1", "a1"],
      ["placement", "id-1", holding],
      ["event", "id-2", holding],
    ]);
    expect(changes[0]?.payload).toMatchObject({ name: "Heath (restored)", address: "Lane 1" });
    expect(changes[1]?.payload).toMatchObject({ apiary_id: holding });
    expect(changes[3]?.payload).toEqual({ ended_at: at });
    expect(changes[4]?.payload).toEqual({
      hive_id: "h1",
      apiary_id: holding,
      started_at: at,
      ended_at: null,
    });
    expect(JSON.parse(String(changes[5]?.payload.detail_json))).toEqual({
      from: "a1",
      to: holding,
      restored: true,
    });
    expect(changes[5]?.payload.title).toBe("Hive Linden moved to Heath (restored)");
  });

  it("moves into an existing holding apiary without writing it, and past a deleted one", () => {
    const h1 = holdingApiaryId("a1");
    const live = new Map([
      ["a1", apiary("a1", "Heath", true)],
      [h1, apiary(h1, "Heath (restored)", false)],
    ]);
    expect(repairHiveApiary(ctx(), rows, live).map((c) => c.entity)).not.toContain("apiary");
    const gone = new Map([
      ["a1", apiary("a1", "Heath", true)],
      [h1, apiary(h1, "Heath (restored)", true)],
    ]);
    expect(holdingOf("a1", gone)?.id).toBe(holdingApiaryId(h1));
    expect(repairHiveApiary(ctx(), rows, gone)[0]).toMatchObject({
      entity: "apiary",
      entityId: holdingApiaryId(h1),
      payload: { name: "Heath (restored)" },
    });
  });

  it("dates the move when the hive arrived if it arrived after the delete", () => {
    const late = {
      ...placement,
      values: { ...placement.values, started_at: "2026-05-15T00:00:00.000Z" },
    };
    const apiaries = new Map([["a1", apiary("a1", "Heath", true)]]);
    const changes = repairHiveApiary(ctx(), { ...rows, placements: [late] }, apiaries);
    expect(changes.find((c) => c.entityId === "p1")?.payload).toEqual({
      ended_at: "2026-05-15T00:00:00.000Z",
    });
  });

  it("writes nothing for a hive in a live or unknown apiary, or a deleted hive", () => {
    expect(repairHiveApiary(ctx(), rows, new Map([["a1", apiary("a1", "H", false)]]))).toEqual([]);
    expect(repairHiveApiary(ctx(), rows, new Map())).toEqual([]);
    const deleted = { ...rows, hive: hive("a1", true) };
    expect(repairHiveApiary(ctx(), deleted, new Map([["a1", apiary("a1", "H", true)]]))).toEqual(
      [],
    );
    expect(deletedAt(apiary("a1", "H", true))).toBe(new Date(deleteMs).toISOString());
    expect(deletedAt(apiary("a1", "H", false))).toBe("");
  });
});

describe("repairHiveApiary properties", () => {
  /** A chain of apiaries a1 → holding(a1) → …, each deleted or not, some never created. */
  const chainArb = fc.array(fc.constantFrom("live", "deleted", "absent"), {
    minLength: 1,
    maxLength: 4,
  });
  const apiariesOf = (chain: readonly string[]) => {
    const map = new Map<string, InvariantRow>();
    let id = "a1";
    for (const state of chain) {
      if (state !== "absent")
        map.set(id, apiary(id, `Apiary ${id.slice(0, 4)}`, state === "deleted"));
      id = holdingApiaryId(id);
    }
    return map;
  };
  const rowsArb = fc.record({
    chain: chainArb,
    started: fc.integer({ min: 0, max: 20 }),
  });
  const placementAt = (day: number) =>
    row("p1", "a1", {
      hive_id: "h1",
      apiary_id: "a1",
      started_at: new Date(deleteMs + (day - 10) * 86_400_000).toISOString(),
      ended_at: null,
    });

  it("leaves the hive at a live apiary, never an interval ending before it starts, and needs no second repair", () => {
    fc.assert(
      fc.property(rowsArb, ({ chain, started }) => {
        const apiaries = apiariesOf(chain);
        const rows = { hive: hive("a1"), placements: [placementAt(started)], queenIds: [] };
        const changes = repairHiveApiary(ctx(), rows, apiaries);
        if (apiaries.get("a1")?.deleted !== true) {
          expect(changes).toEqual([]);
          return;
        }
        // Apply the repair to the rows it read.
        const after = new Map(apiaries);
        for (const c of changes.filter((x) => x.entity === "apiary")) {
          after.set(c.entityId, {
            id: c.entityId,
            scopeId: c.entityId,
            values: c.payload,
            clock: {},
            deleted: false,
          });
        }
        const to = String(changes.find((c) => c.entity === "hive")?.payload.apiary_id);
        expect(after.get(to)?.deleted).toBe(false);
        const closed = changes.find((c) => c.entity === "placement" && c.entityId === "p1");
        expect(
          String(closed?.payload.ended_at) >= String(rows.placements[0]?.values.started_at),
        ).toBe(true);
        const moved = { ...rows.hive, values: { ...rows.hive.values, apiary_id: to } };
        expect(repairHiveApiary(ctx(), { ...rows, hive: moved, placements: [] }, after)).toEqual(
          [],
        );
      }),
    );
  });

  it("answers the same changes whatever order the apiaries were read in", () => {
    fc.assert(
      fc.property(rowsArb, ({ chain, started }) => {
        const apiaries = apiariesOf(chain);
        const reversed = new Map([...apiaries].reverse());
        const rows = { hive: hive("a1"), placements: [placementAt(started)], queenIds: ["q1"] };
        expect(repairHiveApiary(ctx(), rows, reversed)).toEqual(
          repairHiveApiary(ctx(), rows, apiaries),
        );
      }),
    );
  });
});
