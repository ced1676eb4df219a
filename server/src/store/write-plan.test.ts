/** The write plan without a database: which rows, which feed entries, which shortcut. */
import { type Change, type Hlc, type RowState, rowKey } from "@hivekeep/client-core/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Check,
  planWrites,
  type WriteChunk,
  type WriteInput,
  type WriteSummary,
  type WrittenRow,
} from "./write-plan.ts";

const hlc = (ms: number, node = "dev-a"): Hlc =>
  `${String(ms).padStart(15, "0")}:00000:${node}` as Hlc;

const apiary = (id: string, ms: number, over: Partial<Change> = {}): Change => ({
  entity: "apiary",
  entityId: id,
  scopeId: id,
  op: "upsert",
  payload: {},
  hlc: hlc(ms),
  authorId: "u1",
  ...over,
});

/** Runs the whole plan: every chunk, then the summary. */
function plan(input: Partial<WriteInput> & Pick<WriteInput, "changes">): {
  chunks: WriteChunk[];
  summary: WriteSummary;
} {
  const planner = planWrites({ stored: new Map(), feedSeq: 0, ...input });
  const chunks: WriteChunk[] = [];
  for (let step = planner.next(); ; step = planner.next()) {
    if (step.done) return { chunks, summary: step.value };
    chunks.push(step.value);
  }
}

/** A stored apiary row with every column stamped `ms`. */
const storedApiary = (id: string, ms: number, values: RowState["values"]): [string, WrittenRow] => [
  rowKey("apiary", id),
  {
    state: {
      values,
      clock: Object.fromEntries(Object.keys(values).map((c) => [c, hlc(ms)])),
      deleted: false,
    },
    scopeId: id,
  },
];

describe("planWrites", () => {
  it("stamps the readings window on inspections and their events (readings-window.ts)", () => {
    const jan = "2026-01-01T10:00:00.000Z";
    const feb = "2026-02-01T10:00:00.000Z";
    const change = (entity: Change["entity"], id: string, ms: number, payload: object): Change => ({
      entity,
      entityId: id,
      scopeId: "a1",
      op: "upsert",
      payload: { ...payload },
      hlc: hlc(ms),
      authorId: "u1",
    });
    const event = (id: string, ms: number) =>
      change("event", id, ms, { type: 1, date: jan, ref_entity: "inspection", ref_id: "i1" });
    const { chunks } = plan({
      changes: [
        // A reading and its event: held until its date.
        change("inspection", "i1", 1, { hive_id: "h1", date: jan, weight_kg: 40 }),
        event("e1", 2),
        // Moved a month on: held until the later date.
        change("inspection", "i1", 3, { date: feb }),
        // Made a visit: never held, nor its event written after it.
        change("inspection", "i1", 4, { note: "queen seen" }),
        event("e2", 5),
        // A hive: never.
        change("hive", "h2", 6, { name: "H" }),
      ],
    });
    const feed = chunks.flatMap((c) => c.feed);
    // With the inspection's whole state: the changes that begin from a reading.
    expect(feed.map((e) => [e.change.entityId, e.heldUntil, e.withState])).toEqual([
      ["i1", Date.parse(jan), false],
      ["e1", Date.parse(jan), false],
      ["i1", Date.parse(feb), true],
      ["i1", undefined, true],
      ["e2", undefined, false],
      ["h2", undefined, false],
    ]);
  });

  it("lets a row that is one change's payload ride on that change's feed entry", () => {
    const create = apiary("a1", 10, { payload: { name: "Home", lat: 1.5 } });
    const { chunks, summary } = plan({ changes: [create], feedSeq: 41 });
    expect(chunks).toEqual([
      {
        upTo: 1,
        feed: [
          {
            seq: 42,
            change: create,
            withState: false,
            carries: { clock: { name: hlc(10), lat: hlc(10) }, complete: true },
          },
        ],
        rows: [],
      },
    ]);
    expect(summary.lastSeq).toBe(42);
    expect(summary.rejections).toEqual([]);
    expect(summary.written.get(rowKey("apiary", "a1"))).toEqual({
      state: {
        values: { name: "Home", lat: 1.5 },
        clock: { name: hlc(10), lat: hlc(10) },
        deleted: false,
      },
      scopeId: "a1",
    });
  });

  it("carries a partial new row too, as incomplete", () => {
    const partial = apiary("a1", 10, { payload: { address: "Lane" } });
    const [chunk] = plan({ changes: [partial] }).chunks;
    expect(chunk?.feed[0]?.carries).toEqual({ clock: { address: hlc(10) }, complete: false });
    expect(chunk?.rows).toEqual([]);
  });

  it("writes a row touched twice once, by its table's insert, after two feed entries", () => {
    const first = apiary("a1", 10, { payload: { name: "One", lat: 1 } });
    const second = apiary("a1", 11, { payload: { name: "Two" } });
    const { chunks } = plan({ changes: [first, second] });
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.feed).toEqual([
      { seq: 1, change: first, withState: false },
      { seq: 2, change: second, withState: false },
    ]);
    expect(chunks[0]?.rows).toEqual([
      {
        entity: "apiary",
        id: "a1",
        scopeId: "a1",
        state: {
          values: { name: "Two", lat: 1 },
          clock: { name: hlc(11), lat: hlc(10) },
          deleted: false,
        },
        complete: true,
        how: "insert",
      },
    ]);
  });

  it("upserts a stored row and feeds only the accepted part of a change", () => {
    const [key, row] = storedApiary("a1", 20, { name: "Stored", address: "Old" });
    const stored = new Map([
      [key, { ...row, state: { ...row.state, clock: { name: hlc(20), address: hlc(10) } } }],
    ]);
    // name loses to the stored stamp, address wins.
    const change = apiary("a1", 15, { payload: { name: "Older", address: "New" } });
    const rewind = apiary("a1", 15, { payload: { address: "New" } });
    const { chunks, summary } = plan({ changes: [change], stored });
    expect(chunks[0]?.feed).toEqual([
      { seq: 1, change: { ...change, payload: { address: "New" } }, withState: false },
    ]);
    expect(chunks[0]?.rows).toMatchObject([
      { id: "a1", how: "upsert", state: { values: { name: "Stored", address: "New" } } },
    ]);
    expect(summary.conflicts).toEqual([
      { entity: "apiary", entityId: "a1", columns: ["name"], winningHlc: hlc(20) },
    ]);
    // The same accepted part again (a re-push) changes nothing: no entry, no write.
    const again = plan({
      changes: [rewind],
      stored: summary.written,
      feedSeq: 1,
    });
    expect(again.chunks).toEqual([{ upTo: 1, feed: [], rows: [] }]);
    expect(again.summary.lastSeq).toBe(1);
    expect(again.summary.written.size).toBe(0);
    expect(again.summary.results[0]?.changed).toBe(false);
  });

  it("writes by their table a new row created with an orset column, and one deleted at once", () => {
    const inspection: Change = {
      entity: "inspection",
      entityId: "i1",
      scopeId: "a1",
      op: "upsert",
      payload: {
        hive_id: "h1",
        apiary_id: "a1",
        date: "2026-05-01T10:00:00.000Z",
        photo_keys: { add: ["data:image/png;base64,AA=="] },
      },
      hlc: hlc(10),
      authorId: "u1",
    };
    const deleted = apiary("a2", 11, { op: "delete" });
    const { chunks } = plan({ changes: [inspection, deleted] });
    expect(chunks[0]?.feed.map((e) => e.carries)).toEqual([undefined, undefined]);
    expect(chunks[0]?.rows.map((r) => [r.id, r.how, r.state.deleted])).toEqual([
      ["i1", "insert", false],
      ["a2", "insert", true],
    ]);
    expect(chunks[0]?.feed[1]?.change.payload).toEqual({});
  });

  it("scopes a feed entry like its row, which keeps its stored scope", () => {
    const hive = rowKey("hive", "h1");
    const stored = new Map<string, WrittenRow>([
      [
        hive,
        {
          state: {
            values: { apiary_id: "a1", name: "H" },
            clock: { apiary_id: hlc(5), name: hlc(5) },
            deleted: false,
          },
          scopeId: "a1",
        },
      ],
    ]);
    // Written by a device that thinks the hive is at a2, without moving it.
    const rename: Change = {
      entity: "hive",
      entityId: "h1",
      scopeId: "a2",
      op: "upsert",
      payload: { name: "H2" },
      hlc: hlc(6),
      authorId: "u1",
    };
    const [chunk] = plan({ changes: [rename], stored }).chunks;
    expect(chunk?.feed[0]?.change.scopeId).toBe("a1");
    expect(chunk?.rows[0]?.scopeId).toBe("a1");
  });

  it("writes each row with the chunk of its last change, and carries it only when its entry is in that chunk", () => {
    const a1 = apiary("a1", 10, { payload: { name: "One" } });
    const a2 = apiary("a2", 11, { payload: { name: "Two" } });
    const a3 = apiary("a3", 12, { payload: { name: "Three" } });
    // a1 again, the same change: a re-push that changes nothing, in the second chunk.
    const { chunks, summary } = plan({ changes: [a1, a2, a3, a1], chunk: 2, feedSeq: 7 });
    expect(chunks.map((c) => c.upTo)).toEqual([2, 4]);
    expect(
      chunks.map((c) => c.feed.map((e) => [e.seq, e.change.entityId, e.carries !== undefined])),
    ).toEqual([
      [
        [8, "a1", false],
        [9, "a2", true],
      ],
      [[10, "a3", true]],
    ]);
    // a1's entry went out with the first chunk: the second writes its row by the table.
    expect(chunks.map((c) => c.rows.map((r) => r.id))).toEqual([[], ["a1"]]);
    expect(summary.lastSeq).toBe(10);
    expect([...summary.written.keys()]).toEqual(["apiary/a1", "apiary/a2", "apiary/a3"]);
  });

  it("checks every change against the row as it stands, and plans no chunk after a rejection", () => {
    const seen: [number, unknown][] = [];
    const check: Check = (change, index, existing) => {
      seen.push([index, existing?.values]);
      return change.payload.name === "bad"
        ? [{ index, code: "invalid_argument", reason: "bad name" }]
        : [];
    };
    const changes = [
      apiary("a1", 10, { payload: { name: "ok" } }),
      apiary("a2", 11, { payload: { name: "bad" } }),
      apiary("a1", 12, { payload: { address: "later" } }),
      apiary("a3", 13, { payload: { name: "bad" } }),
    ];
    const { chunks, summary } = plan({ changes, check, chunk: 1 });
    // The first chunk was planned (and may have been sent: the transaction rolls it back).
    expect(chunks.map((c) => c.upTo)).toEqual([1]);
    expect(summary.rejections.map((r) => r.index)).toEqual([1, 3]);
    // Change 2 saw change 0's row.
    expect(seen).toEqual([
      [0, undefined],
      [1, undefined],
      [2, { name: "ok" }],
      [3, undefined],
    ]);
  });

  it("passes a check the stored row's facts: complete and scope", () => {
    const stored = new Map([storedApiary("a1", 5, { address: "only" })]);
    let facts: unknown;
    plan({
      changes: [apiary("a1", 6, { payload: { name: "n" } })],
      stored,
      check: (_c, _i, existing) => {
        facts = existing;
        return [];
      },
    });
    expect(facts).toEqual({
      values: { address: "only" },
      clock: { address: hlc(5) },
      deleted: false,
      complete: false,
      scopeId: "a1",
    });
  });

  it("in any chunks: the same entries in order, every changed row written once as it ends, its input untouched", () => {
    const ids = ["a1", "a2", "a3"];
    const columns = ["name", "address", "lat"] as const;
    const changeArb = fc.record({
      id: fc.constantFrom(...ids),
      ms: fc.integer({ min: 1, max: 30 }),
      node: fc.constantFrom("dev-a", "dev-b"),
      delete: fc.integer({ min: 0, max: 9 }).map((n) => n < 2),
      payload: fc.dictionary(fc.constantFrom(...columns), fc.constantFrom("x", "y", "")),
    });
    fc.assert(
      fc.property(
        fc.array(changeArb, { minLength: 1, maxLength: 12 }),
        fc.subarray(ids),
        fc.integer({ min: 1, max: 5 }),
        (specs, storedIds, chunk) => {
          const changes = specs.map((s) =>
            apiary(s.id, s.ms, {
              hlc: hlc(s.ms, s.node),
              op: s.delete ? "delete" : "upsert",
              payload: s.delete ? {} : s.payload,
            }),
          );
          const stored = new Map(storedIds.map((id) => storedApiary(id, 15, { name: "s" })));
          const input = { changes, stored, feedSeq: 100 };
          const before = structuredClone(input);
          const whole = plan(input);
          const chunked = plan({ ...input, chunk });
          expect(input).toEqual(before);

          const entries = (p: typeof whole) =>
            p.chunks.flatMap((c) => c.feed.map(({ seq, change }) => ({ seq, change })));
          expect(entries(chunked)).toEqual(entries(whole));
          expect(entries(whole).map((e) => e.seq)).toEqual(entries(whole).map((_, i) => 101 + i));
          expect(chunked.summary).toEqual(whole.summary);
          expect(chunked.chunks.at(-1)?.upTo).toBe(changes.length);

          for (const p of [whole, chunked]) {
            // Every changed row is written exactly once, as the batch left it.
            const writes = p.chunks.flatMap((c) => [
              ...c.rows.map((r) => ({
                key: rowKey(r.entity, r.id),
                scopeId: r.scopeId,
                state: r.state,
                how: r.how,
              })),
              ...c.feed.flatMap(({ change, carries }) =>
                carries === undefined
                  ? []
                  : [
                      {
                        key: rowKey(change.entity, change.entityId),
                        scopeId: change.scopeId,
                        // A carried row is its payload, stamped by its change, not deleted.
                        state: { values: change.payload, clock: carries.clock, deleted: false },
                        how: "insert" as const,
                      },
                    ],
              ),
            ]);
            expect(writes.map((w) => w.key).sort()).toEqual([...p.summary.written.keys()].sort());
            for (const w of writes) {
              expect({ state: w.state, scopeId: w.scopeId }).toEqual(p.summary.written.get(w.key));
              expect(w.how).toBe(stored.has(w.key) ? "upsert" : "insert");
            }
            for (const { change, carries } of p.chunks.flatMap((c) => c.feed)) {
              if (carries === undefined) continue;
              expect(Object.values(carries.clock).every((h) => h === change.hlc)).toBe(true);
              expect(stored.has(rowKey(change.entity, change.entityId))).toBe(false);
            }
          }
        },
      ),
    );
  });
});
