import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fakeContext } from "../testing/command-context.ts";
import type { Change } from "./change.ts";
import { deleteQueen } from "./commands/queen.ts";
import { entities } from "./entities.ts";
import { formatHlc, type Hlc } from "./hlc.ts";
import {
  activeQueensInOrder,
  type HiveRows,
  type InvariantRow,
  keptPlacement,
  repairHive,
} from "./invariants.ts";
import { applyChange, deletedKey, type Values } from "./merge.ts";

const now = new Date("2026-05-20T10:00:00.000Z");
/** Every stored stamp is older than the repair's (fakeContext stamps at `now`). */
const old: Hlc = formatHlc({ ms: Date.parse("2026-01-01T00:00:00.000Z"), counter: 0, node: "dev" });
const ctx = () => fakeContext({ now, authorId: "user-1" });

function row(id: string, scopeId: string, values: Values, deleted = false): InvariantRow {
  const clock: Record<string, Hlc> = {};
  for (const column of Object.keys(values)) clock[column] = old;
  if (deleted) clock[deletedKey] = old;
  return { id, scopeId, values, clock, deleted };
}

const hive = (apiaryId: string, deleted = false) =>
  row("hive-1", apiaryId, { apiary_id: apiaryId, name: "H" }, deleted);

const queen = (id: string, values: Values, deleted = false) =>
  row(id, "a1", { hive_id: "hive-1", year: 2025, active: true, ...values }, deleted);

const placement = (
  id: string,
  apiaryId: string,
  startedAt: string,
  endedAt: string | null = null,
) =>
  row(id, apiaryId, {
    hive_id: "hive-1",
    apiary_id: apiaryId,
    started_at: startedAt,
    ended_at: endedAt,
  });

const rowsOf = (over: Partial<HiveRows>): HiveRows => ({
  hiveId: "hive-1",
  hive: hive("a1"),
  queens: [],
  placements: [],
  ...over,
});

const t = (day: number) => `2026-04-${String(day).padStart(2, "0")}T00:00:00.000Z`;

describe("repairHive: one reigning queen", () => {
  it("keeps the queen introduced last; the other is replaced at her introduction, with a QUEEN_REPLACED event", () => {
    const changes = repairHive(
      ctx(),
      rowsOf({
        queens: [
          queen("q-b", { introduced_at: t(10), year: 2026 }),
          queen("q-a", { introduced_at: t(5), year: 2024 }),
        ],
        placements: [placement("p-1", "a1", t(1))],
      }),
    );
    expect(changes).toEqual([
      {
        entity: "queen",
        entityId: "q-a",
        scopeId: "a1",
        op: "upsert",
        payload: { active: false, replaced_at: t(10), updated_at: now.toISOString() },
        hlc: expect.any(String),
        authorId: "user-1",
      },
      {
        entity: "event",
        entityId: "id-1",
        scopeId: "a1",
        op: "upsert",
        payload: {
          type: 3, // QUEEN_REPLACED
          date: t(10),
          apiary_id: "a1",
          hive_id: "hive-1",
          queen_id: "q-a",
          ref_entity: "queen",
          ref_id: "q-a",
          amount_kg: 0,
          detail_json: JSON.stringify({ replacedBy: "q-b" }),
          author_id: "user-1",
          title: "Queen 2024 replaced",
          created_at: now.toISOString(),
        },
        hlc: expect.any(String),
        authorId: "user-1",
      },
    ]);
  });

  it("breaks a tie of introductions by the greater id, and falls back to created_at", () => {
    const tie = repairHive(
      ctx(),
      rowsOf({
        queens: [queen("q-2", { introduced_at: t(5) }), queen("q-1", { introduced_at: t(5) })],
      }),
    );
    expect(tie.filter((c) => c.entity === "queen").map((c) => c.entityId)).toEqual(["q-1"]);
    expect(tie[0]?.payload.replaced_at).toBe(t(5));

    const created = repairHive(
      ctx(),
      rowsOf({
        queens: [queen("q-1", { introduced_at: t(5) }), queen("q-2", { created_at: t(7) })],
      }),
    );
    expect(created[0]).toMatchObject({ entityId: "q-1", payload: { replaced_at: t(7) } });
  });

  it("replaces each of several queens when the next one was introduced, so reigns do not overlap", () => {
    const changes = repairHive(
      ctx(),
      rowsOf({
        queens: [
          queen("q-c", { introduced_at: t(9) }),
          queen("q-a", { introduced_at: t(1) }),
          queen("q-b", { introduced_at: t(4) }),
        ],
      }),
    );
    const queens = changes.filter((c) => c.entity === "queen");
    expect(queens.map((c) => [c.entityId, c.payload.replaced_at])).toEqual([
      ["q-a", t(4)],
      ["q-b", t(9)],
    ]);
    const events = changes.filter((c) => c.entity === "event");
    expect(events.map((e) => JSON.parse(String(e.payload.detail_json)))).toEqual([
      { replacedBy: "q-b" },
      { replacedBy: "q-c" },
    ]);
  });

  it("counts only live, complete, active queens of the hive", () => {
    const rows = rowsOf({
      queens: [
        queen("q-live", { introduced_at: t(1) }),
        queen("q-gone", { introduced_at: t(2) }, true),
        queen("q-partial", { introduced_at: t(3), year: undefined }),
        queen("q-inactive", { introduced_at: t(4), active: false }),
        queen("q-other-hive", { introduced_at: t(5), hive_id: "hive-2" }),
      ],
    });
    // year never written: the row is partial.
    const fixed = { ...rows, queens: rows.queens.map(written) };
    expect(activeQueensInOrder(fixed).map((q) => q.id)).toEqual(["q-live"]);
    expect(repairHive(ctx(), fixed)).toEqual([]);
  });

  it("records the event where the hive stood when the reign ended, and writes the queen where it stands now", () => {
    const changes = repairHive(
      ctx(),
      rowsOf({
        hive: hive("a2"),
        queens: [queen("q-a", { introduced_at: t(2) }), queen("q-b", { introduced_at: t(5) })],
        placements: [placement("p-1", "a1", t(1), t(8)), placement("p-2", "a2", t(8))],
      }),
    );
    expect(changes.map((c) => [c.entity, c.scopeId])).toEqual([
      ["queen", "a2"],
      ["event", "a1"],
    ]);
    expect(changes[1]?.payload.apiary_id).toBe("a1");
  });
});

describe("repairHive: one open placement", () => {
  it("keeps the open placement at the hive's apiary and closes the other when the kept one started", () => {
    const changes = repairHive(
      ctx(),
      rowsOf({
        hive: hive("b"),
        placements: [
          placement("p-0", "a", t(1), t(5)),
          placement("p-b", "b", t(5)),
          placement("p-c", "c", t(7)),
        ],
      }),
    );
    // p-c started after the kept one: it ends as it starts (it never held the hive).
    expect(changes).toEqual([
      expect.objectContaining({
        entity: "placement",
        entityId: "p-c",
        scopeId: "c",
        payload: { ended_at: t(7) },
      }),
    ]);

    const other = repairHive(
      ctx(),
      rowsOf({
        hive: hive("c"),
        placements: [placement("p-b", "b", t(5)), placement("p-c", "c", t(7))],
      }),
    );
    expect(other).toEqual([
      expect.objectContaining({ entityId: "p-b", scopeId: "b", payload: { ended_at: t(7) } }),
    ]);
  });

  it("keeps the latest-started when none is at the hive's apiary (ties: greater id)", () => {
    const rows = rowsOf({
      hive: hive("z"),
      placements: [
        placement("p-2", "b", t(5)),
        placement("p-1", "a", t(5)),
        placement("p-0", "c", t(3)),
      ],
    });
    expect(keptPlacement(rows)?.id).toBe("p-2");
    expect(repairHive(ctx(), rows).map((c) => [c.entityId, c.payload.ended_at])).toEqual([
      ["p-0", t(5)],
      ["p-1", t(5)],
    ]);
  });

  it("closes every open placement of a deleted hive when it was deleted (not before it started)", () => {
    const deleted = hive("a", true);
    const deletedAt = "2026-04-06T12:00:00.000Z";
    const rows = rowsOf({
      hive: {
        ...deleted,
        clock: {
          ...deleted.clock,
          [deletedKey]: formatHlc({ ms: Date.parse(deletedAt), counter: 3, node: "d" }),
        },
      },
      placements: [
        placement("p-a", "a", t(2)),
        placement("p-b", "b", t(9)),
        placement("p-x", "c", t(1), t(2)),
      ],
    });
    expect(repairHive(ctx(), rows).map((c) => [c.entityId, c.payload.ended_at])).toEqual([
      ["p-a", deletedAt],
      ["p-b", t(9)],
    ]);
  });

  it("changes nothing for one open placement, or none", () => {
    expect(repairHive(ctx(), rowsOf({ placements: [placement("p", "z", t(1))] }))).toEqual([]);
    expect(repairHive(ctx(), rowsOf({ hive: undefined }))).toEqual([]);
  });
});

// ---- properties ---------------------------------------------------------------------------

const apiaries = ["a", "b", "c"];
const timeArb = fc.integer({ min: 1, max: 9 }).map(t);
/** Mostly present: a column left unwritten (a partial row) one time in five. */
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 5 });
/** True one time in five: deleted rows, inactive queens and other hives are the exception. */
const rarely = fc.integer({ min: 0, max: 4 }).map((n) => n === 0);
const hiveIdArb = rarely.map((other) => (other ? "hive-2" : "hive-1"));

/** Drops the columns whose value is undefined (never written) from values and clock. */
function written(r: InvariantRow): InvariantRow {
  const values: Values = {};
  const clock: Record<string, Hlc> = {};
  for (const [k, v] of Object.entries(r.values)) {
    if (v === undefined) continue;
    values[k] = v;
    clock[k] = r.clock[k] ?? old;
  }
  if (r.deleted) clock[deletedKey] = old;
  return { ...r, values, clock };
}

const queenArb = (id: string) =>
  fc
    .record({
      introduced_at: optional(timeArb),
      created_at: optional(timeArb),
      active: rarely.map((no) => !no),
      year: optional(fc.constant(2025)),
      hive_id: hiveIdArb,
      deleted: rarely,
    })
    .map(({ deleted, ...values }) => written(row(id, "a", values, deleted)));

const placementArb = (id: string) =>
  fc
    .record({
      apiary_id: fc.constantFrom(...apiaries),
      started_at: optional(timeArb),
      ended_at: fc.oneof(
        { arbitrary: fc.constant(null), weight: 3 },
        { arbitrary: timeArb, weight: 1 },
      ),
      hive_id: hiveIdArb,
      deleted: rarely,
    })
    .map(({ deleted, ...values }) => written(row(id, values.apiary_id, values, deleted)));

const hiveRowsArb: fc.Arbitrary<HiveRows> = fc
  .record({
    hive: optional(
      fc.record({
        apiary: fc.constantFrom(...apiaries),
        deleted: rarely,
        deletedMs: fc.integer({ min: Date.parse(t(1)), max: Date.parse(t(9)) }),
      }),
    ),
    queens: fc.uniqueArray(fc.constantFrom("q1", "q2", "q3", "q4", "q5"), { maxLength: 5 }),
    placements: fc.uniqueArray(fc.constantFrom("p1", "p2", "p3", "p4", "p5"), { maxLength: 5 }),
  })
  .chain(({ hive: h, queens, placements }) =>
    fc.record({
      hiveId: fc.constant("hive-1"),
      hive: fc.constant(
        h === undefined
          ? undefined
          : (() => {
              const r = hive(h.apiary, h.deleted);
              if (!h.deleted) return r;
              const stamp = formatHlc({ ms: h.deletedMs, counter: 0, node: "d" });
              return { ...r, clock: { ...r.clock, [deletedKey]: stamp } };
            })(),
      ),
      queens: fc.tuple(...queens.map(queenArb)),
      placements: fc.tuple(...placements.map(placementArb)),
    }),
  );

/** The rows after the changes merged into them (shared merge rule). */
function merged(rows: HiveRows, changes: readonly Change[]): HiveRows {
  const apply = (list: readonly InvariantRow[], entity: "queen" | "placement") =>
    list.map((r) => {
      let row = r;
      for (const c of changes) {
        if (c.entity !== entity || c.entityId !== r.id) continue;
        row = { ...row, ...applyChange(row, c, entities[entity]).row };
      }
      return row;
    });
  return {
    ...rows,
    queens: apply(rows.queens, "queen"),
    placements: apply(rows.placements, "placement"),
  };
}

const shuffled = <T>(list: readonly T[], keys: readonly number[]): T[] =>
  list
    .map((v, i) => [keys[i] ?? i, i, v] as const)
    .sort((a, b) => a[0] - b[0] || a[1] - b[1])
    .map(([, , v]) => v);

const openOf = (rows: HiveRows) =>
  rows.placements.filter(
    (p) =>
      !p.deleted &&
      p.values.hive_id === "hive-1" &&
      p.values.started_at !== undefined &&
      p.values.ended_at == null,
  );

describe("repairHive properties", () => {
  it("leaves at most one reigning queen and one open placement (at the hive's apiary when one was; none for a deleted hive)", () => {
    fc.assert(
      fc.property(hiveRowsArb, (rows) => {
        const after = merged(rows, repairHive(ctx(), rows));
        expect(activeQueensInOrder(after).length).toBeLessThanOrEqual(1);
        const before = openOf(rows);
        const open = openOf(after);
        if (rows.hive?.deleted) expect(open).toEqual([]);
        else expect(open.length).toBe(Math.min(before.length, 1));
        const apiary = rows.hive?.values.apiary_id;
        if (!rows.hive?.deleted && before.some((p) => p.values.apiary_id === apiary)) {
          expect(open[0]?.values.apiary_id).toBe(apiary);
        }
        // No interval ends before it starts.
        for (const p of after.placements) {
          if (typeof p.values.ended_at === "string" && p.values.started_at !== undefined) {
            if (!before.some((b) => b.id === p.id)) continue;
            expect(p.values.ended_at >= String(p.values.started_at)).toBe(true);
          }
        }
      }),
    );
  });

  it("is idempotent: the repaired rows need no repair", () => {
    fc.assert(
      fc.property(hiveRowsArb, (rows) => {
        const after = merged(rows, repairHive(ctx(), rows));
        expect(repairHive(ctx(), after)).toEqual([]);
      }),
    );
  });

  it("answers the same changes whatever order the rows come in", () => {
    fc.assert(
      fc.property(
        hiveRowsArb,
        fc.array(fc.integer(), { minLength: 5, maxLength: 5 }),
        fc.array(fc.integer(), { minLength: 5, maxLength: 5 }),
        (rows, qKeys, pKeys) => {
          const reordered = {
            ...rows,
            queens: shuffled(rows.queens, qKeys),
            placements: shuffled(rows.placements, pKeys),
          };
          expect(repairHive(ctx(), reordered)).toEqual(repairHive(ctx(), rows));
        },
      ),
    );
  });

  it("wins last-writer-wins over the rows it repairs: every column it writes is taken", () => {
    fc.assert(
      fc.property(hiveRowsArb, (rows) => {
        for (const c of repairHive(ctx(), rows)) {
          if (c.entity === "event") continue;
          const list = c.entity === "queen" ? rows.queens : rows.placements;
          const current = list.find((r) => r.id === c.entityId);
          const result = applyChange(current, c, entities[c.entity]);
          expect(result.lost).toEqual([]);
          expect(Object.keys(result.accepted).sort()).toEqual(Object.keys(c.payload).sort());
        }
      }),
    );
  });
});

describe("DeleteQueen and the repair agree (issue 25)", () => {
  const reignOf = (q: InvariantRow) => ({
    id: q.id,
    scopeId: q.scopeId,
    year: Number(q.values.year),
    start: String(q.values.introduced_at),
    replacedAt: (q.values.replaced_at as string | null | undefined) ?? null,
    active: q.values.active === true,
  });
  /** The rows after the changes, merged as every replica merges them. */
  const applied = (rows: InvariantRow[], changes: Change[]) =>
    rows.map((r) => {
      let current = r;
      for (const c of changes) {
        if (c.entity !== "queen" || c.entityId !== r.id) continue;
        current = { ...current, ...applyChange(current, c, entities.queen).row };
      }
      return current;
    });

  it.each([
    ["the reigning queen", "q-3"],
    ["a replaced queen", "q-2"],
    ["the first queen", "q-1"],
  ])("deleting %s leaves at most one active queen and nothing to repair", (_, id) => {
    const queens = [
      queen("q-1", { introduced_at: t(1), replaced_at: t(5), active: false }),
      queen("q-2", { introduced_at: t(5), replaced_at: t(9), active: false }),
      queen("q-3", { introduced_at: t(9) }),
    ];
    const deleted = queens.find((q) => q.id === id) as InvariantRow;
    const changes = deleteQueen(
      ctx(),
      {
        hiveId: "hive-1",
        queen: reignOf(deleted),
        others: queens.filter((q) => q !== deleted).map(reignOf),
        events: [],
        scopeId: "a1",
        records: [],
      },
      id,
    );
    const after = applied(queens, changes);
    const rows = rowsOf({ queens: after });
    expect(activeQueensInOrder(rows).map((q) => q.id)).toEqual([id === "q-3" ? "q-2" : "q-3"]);
    expect(repairHive(ctx(), rows)).toEqual([]);
    // The reigns still follow one another without overlap.
    const live = after.filter((q) => !q.deleted).map(reignOf);
    for (const [i, q] of live.slice(0, -1).entries()) {
      expect(q.replacedAt, q.id).toBe(live[i + 1]?.start);
    }
  });
});
