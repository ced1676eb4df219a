/**
 * The device's statistics (local-stats.ts) over the in-memory store: the rules of stats-source.ts
 * and of the server's SQL (test/contract/stats.test.ts holds the server to the same figures).
 */
import { EventType } from "@hivekeep/proto";
import { beforeEach, describe, expect, it } from "vitest";
import type { Change } from "../core/change.ts";
import type { EntityName } from "../core/entities.ts";
import type { Hlc } from "../core/hlc.ts";
import type { Values } from "../core/merge.ts";
import { ignoreStamps } from "../testing/ignore-stamps.ts";
import { decimalOf, localStats, sumKg } from "./local-stats.ts";
import { MemoryStore } from "./memory-store.ts";
import type { DashboardQuery } from "./stats-source.ts";

const now = "2026-05-20T10:00:00.000Z";
const day = 86_400_000;
/** `n` days (fractional allowed) before now, as RFC 3339. */
const ago = (n: number) => new Date(Date.parse(now) - n * day).toISOString();

let store: MemoryStore;
let clock = 0;
const change = (
  entity: EntityName,
  id: string,
  scopeId: string,
  op: Change["op"],
  payload: Values,
): Change => ({
  entity,
  entityId: id,
  scopeId,
  op,
  payload,
  hlc: `${String(++clock).padStart(15, "0")}:00000:test` as Hlc,
  authorId: "me",
});
const up = (entity: EntityName, id: string, scope: string, payload: Values) =>
  store.write((w) => w.apply([change(entity, id, scope, "upsert", payload)]));
const del = (entity: EntityName, id: string, scope: string) =>
  store.write((w) => w.apply([change(entity, id, scope, "delete", {})]));
const harvest = (id: string, kg: number | null, date: string, apiary: string, queen = "") =>
  up("event", id, apiary, {
    type: EventType.HARVEST,
    date,
    amount_kg: kg,
    apiary_id: apiary,
    queen_id: queen,
  });

const query = (q: Partial<DashboardQuery> = {}): DashboardQuery => ({
  userId: "me",
  now,
  thresholdDays: 21,
  nextTaskCount: 5,
  recentInspectionCount: 10,
  ...q,
});
const dashboard = (q: Partial<DashboardQuery> = {}) => localStats(store).dashboard(query(q));
const honey = (year = 0) => localStats(store).honey(year);

beforeEach(() => {
  store = new MemoryStore(ignoreStamps);
});

describe("decimal sums (SQL sum(amount_kg::numeric)::float8)", () => {
  it("adds decimals exactly, so 0.1 + 0.2 kg is 0.3 kg", () => {
    expect(sumKg([0.1, 0.2])).toBe(0.3);
    expect(sumKg([0.1, 0.2, 0.2])).toBe(0.5);
    expect(sumKg([1e20, 1, -1e20])).toBe(1);
    expect(sumKg([])).toBe(0);
    expect(sumKg([null, undefined, 2.5])).toBe(2.5);
  });

  it("reads a double as its 15 significant digits, ties to even (Postgres float8 → numeric)", () => {
    const text = (x: number) => {
      const d = decimalOf(x);
      return `${d.digits}e${d.exp}`;
    };
    expect(text(0.1)).toBe("100000000000000e-15");
    expect(text(123456789012344.5)).toBe("123456789012344e0");
    expect(text(123456789012345.5)).toBe("123456789012346e0");
    expect(text(1.000030517578125)).toBe("100003051757812e-14");
    expect(text(-1.000030517578125)).toBe("-100003051757812e-14");
    expect(Number(text(5e-324))).toBe(4.94065645841247e-324);
    expect(Number(text(1.2345678901234566e25))).toBe(1.23456789012346e25);
  });
});

describe("localStats: dashboard", () => {
  it("answers zeros and empty lists for an empty replica", async () => {
    expect(await dashboard()).toEqual({
      apiaries: 0,
      hives: 0,
      activeQueens: 0,
      openTasks: 0,
      overdueTasks: 0,
      honeyKgSeason: 0,
      dueInspections: [],
      nextTasks: [],
      recentInspections: [],
      honeyHistory: [],
    });
  });

  it("counts live apiaries and hives, and active queens of live hives only", async () => {
    await up("apiary", "a1", "a1", { name: "Alpha" });
    await up("apiary", "a2", "a2", { name: "Gone" });
    await del("apiary", "a2", "a2");
    for (const h of ["h1", "h2", "h3"]) await up("hive", h, "a1", { apiary_id: "a1", name: h });
    await del("hive", "h3", "a1");
    await up("queen", "q1", "a1", { hive_id: "h1", year: 2025, active: true });
    await up("queen", "q2", "a1", { hive_id: "h1", year: 2024, active: false });
    await up("queen", "q3", "a1", { hive_id: "h2", year: 2024 });
    await up("queen", "q4", "a1", { hive_id: "h3", year: 2026, active: true });
    await up("queen", "q5", "a1", { hive_id: "h2", year: 2026, active: true });
    await del("queen", "q5", "a1");
    expect(await dashboard()).toMatchObject({ apiaries: 1, hives: 2, activeQueens: 1 });
  });

  it("lists due hives: never inspected first, then the longest due, then name (A–Z folded) and id", async () => {
    await up("apiary", "a1", "a1", { name: "Alpha" });
    const hive = (id: string, name: string, apiary = "a1") =>
      up("hive", id, apiary, { apiary_id: apiary, name });
    await hive("n2", "never b");
    await hive("n1", "Never A");
    await hive("n3", "Émile");
    await hive("n4", "Zed", "a-unknown");
    await hive("n0", "never b");
    await hive("old", "Old");
    await hive("edge21", "Edge 21");
    await hive("edge20", "Edge 20");
    await hive("fresh", "Fresh");
    const inspect = (id: string, hiveId: string, date: string) =>
      up("inspection", id, "a1", { hive_id: hiveId, date });
    await inspect("i1", "old", ago(50));
    await inspect("i2", "old", ago(40.5));
    await inspect("i3", "edge21", ago(21 + 1 / 1440));
    await inspect("i4", "edge20", ago(21 - 1 / 1440));
    await inspect("i5", "fresh", ago(3));
    await inspect("i6", "fresh", ago(1));
    await del("inspection", "i6", "a1");

    const due = (await dashboard()).dueInspections;
    expect(due.map((d) => [d.hiveId, d.daysSinceLast])).toEqual([
      ["n1", -1],
      ["n0", -1],
      ["n2", -1],
      ["n4", -1],
      ["n3", -1],
      ["old", 40],
      ["edge21", 21],
    ]);
    expect(due[0]).toEqual({
      hiveId: "n1",
      hiveName: "Never A",
      apiaryName: "Alpha",
      daysSinceLast: -1,
    });
    expect(due[3]?.apiaryName).toBe("");
    const one = (await dashboard({ thresholdDays: 1 })).dueInspections;
    expect(one.slice(5).map((d) => d.daysSinceLast)).toEqual([40, 21, 20, 3]);
  });

  it("counts open and overdue tasks the user may see and lists the next ones by due date", async () => {
    await up("apiary", "a1", "a1", { name: "Alpha" });
    const task = (id: string, scope: string, payload: Values) =>
      up("task", id, scope, { title: id, created_at: ago(100), ...payload });
    await task("late5", "a1", { apiary_id: "a1", due_at: ago(5), done: false });
    await task("late2", "a1", { apiary_id: "a1", due_at: ago(2) });
    await task("undated-b", "a1", { apiary_id: "a1", created_at: ago(7) });
    await task("undated-a", "a1", { apiary_id: "a1", created_at: ago(7) });
    await task("undated-old", "a1", { apiary_id: "a1", created_at: ago(8) });
    await task("soon", "a1", { apiary_id: "a1", due_at: ago(-1) });
    await task("done", "a1", { apiary_id: "a1", due_at: ago(9), done: true });
    await task("mine", "user:me", { due_at: ago(3) });
    await task("theirs", "user:them", { due_at: ago(30) });
    await task("deleted", "a1", { apiary_id: "a1", due_at: ago(30) });
    await del("task", "deleted", "a1");

    const d = await dashboard({ nextTaskCount: 3 });
    expect(d).toMatchObject({ openTasks: 7, overdueTasks: 3 });
    expect(d.nextTasks).toEqual([
      { id: "late5", title: "late5", dueAt: ago(5) },
      { id: "mine", title: "mine", dueAt: ago(3) },
      { id: "late2", title: "late2", dueAt: ago(2) },
    ]);
    const all = await dashboard({ nextTaskCount: 10 });
    expect(all.nextTasks.map((t) => t.id).slice(3)).toEqual([
      "soon",
      "undated-old",
      "undated-a",
      "undated-b",
    ]);
    expect(all.nextTasks[6]).toEqual({ id: "undated-b", title: "undated-b", dueAt: null });
  });

  it("lists the latest inspections by date, then created_at (none first), then id", async () => {
    const inspect = (id: string, date: string, created?: string) =>
      up("inspection", id, "a1", { hive_id: "h1", date, ...(created && { created_at: created }) });
    await inspect("a", ago(1), ago(1));
    await inspect("b", ago(1), ago(0.5));
    await inspect("c", ago(1));
    await inspect("d", ago(2), ago(2));
    await inspect("e", ago(2), ago(2));
    await inspect("f", ago(3));
    const recent = (await dashboard({ recentInspectionCount: 5 })).recentInspections;
    expect(recent.map((i) => i.id)).toEqual(["c", "b", "a", "e", "d"]);
    expect(recent[0]).toEqual({ id: "c", hiveId: "h1", date: ago(1) });
  });

  it("sums this UTC year's honey and each UTC month's; other and deleted events drop", async () => {
    await harvest("e1", 0.1, "2026-01-01T00:30:00.000Z", "a1");
    await harvest("e2", 0.2, "2026-01-31T23:59:59.000Z", "a1");
    await harvest("e3", 0.2, "2026-01-20T10:00:00.000Z", "a1");
    await del("event", "e3", "a1");
    await harvest("e4", 12.5, "2026-03-10T08:00:00.000Z", "a1");
    await harvest("e5", 7, "2025-12-31T23:30:00.000Z", "a1");
    await harvest("e6", null, "2025-07-01T00:00:00.000Z", "a1");
    await up("event", "e7", "a1", { type: EventType.TREATMENT, date: now, amount_kg: 99 });
    const d = await dashboard();
    expect(d.honeyKgSeason).toBe(12.8);
    expect(d.honeyHistory).toEqual([
      { year: 2025, month: 7, kg: 0 },
      { year: 2025, month: 12, kg: 7 },
      { year: 2026, month: 1, kg: 0.3 },
      { year: 2026, month: 3, kg: 12.5 },
    ]);
  });
});

describe("localStats: honey", () => {
  beforeEach(async () => {
    await up("apiary", "a1", "a1", { name: "Alpha" });
    await up("apiary", "a2", "a2", { name: "Beta" });
    await up("hive", "h1", "a1", { apiary_id: "a1", name: "Queenright" });
    await up("hive", "h2", "a2", { apiary_id: "a2", name: "Moved away" });
    await up("queen", "q1", "a1", { hive_id: "h1", year: 2025 });
    await up("queen", "q2", "a2", { hive_id: "h2", year: 2024 });
    await up("queen", "q3", "a2", { hive_id: "h-unknown", year: 2023 });
    await harvest("e1", 10, "2025-06-01T00:00:00.000Z", "a1", "q1");
    await harvest("e2", 5, "2026-06-01T00:00:00.000Z", "a1", "q1");
    await harvest("e3", 2.5, "2026-07-01T00:00:00.000Z", "a2");
    await harvest("e4", 0.1, "2026-07-02T00:00:00.000Z", "a2");
    await harvest("e5", 2.6, "2026-08-01T00:00:00.000Z", "a2", "q2");
    await harvest("e6", 1, "2026-08-02T00:00:00.000Z", "a-gone", "q3");
    await harvest("e7", 1, "2026-08-03T00:00:00.000Z", "", "q-unknown");
    // The queen and hive of a harvest are gone: their rows still name it.
    await del("queen", "q2", "a2");
    await del("hive", "h2", "a2");
  });

  it("sums per queen, apiary and year, with the SQL's labels and order", async () => {
    expect(await honey()).toEqual({
      perQueen: [
        { key: "q1", label: "2025 queen of Queenright", kg: 15 },
        { key: "q2", label: "2024 queen of Moved away", kg: 2.6 },
        { key: "", label: "No queen recorded", kg: 2.6 },
        { key: "q3", label: "2023 queen of a removed hive", kg: 1 },
        { key: "q-unknown", label: "Queen q-unknown", kg: 1 },
      ],
      perApiary: [
        { key: "a1", label: "Alpha", kg: 15 },
        { key: "a2", label: "Beta", kg: 5.2 },
        { key: "", label: "Apiary ", kg: 1 },
        { key: "a-gone", label: "Apiary a-gone", kg: 1 },
      ],
      perYear: [
        { key: "2025", label: "2025", kg: 10 },
        { key: "2026", label: "2026", kg: 12.2 },
      ],
    });
  });

  it("restricts every sum to one UTC calendar year; a deleted harvest drops", async () => {
    await del("event", "e2", "a1");
    const y = await honey(2026);
    expect(y.perQueen.map((s) => s.key)).toEqual(["q2", "", "q3", "q-unknown"]);
    expect(y.perYear).toEqual([{ key: "2026", label: "2026", kg: 7.2 }]);
    expect(await honey(1999)).toEqual({ perQueen: [], perApiary: [], perYear: [] });
  });
});
