/**
 * StatsService against contract §4.10, §7 and §8, on every
 * database over HTTP and on a device's local operations (test/support/target.ts).
 */
import { upsert, userScope } from "@hivekeep/client-core/core";
import { StatsService } from "@hivekeep/proto";
import { localUserId } from "@hivekeep/server";
import { beforeAll, describe, expect, it } from "vitest";
import { seedChanges, seedContext } from "../support/command-seed.ts";
import { type TestTarget, targetKinds, useTestTarget } from "../support/target.ts";

const day = 86_400_000;
/** `n` days (fractional allowed) before now, as RFC 3339. */
const ago = (n: number) => new Date(Date.now() - n * day).toISOString();
const thisYear = new Date().getUTCFullYear();

/** Shared setup of every StatsService test: apiaries, hives, queens. */
function helpers(t: TestTarget) {
  const ok = async (path: string, body: unknown) => {
    const r = await t.call(path, body);
    expect(r.status, `${path} ${JSON.stringify(r.body)}`).toBe(200);
    return r.body;
  };
  return {
    ok,
    apiary: async (name: string): Promise<string> =>
      (await ok("ApiaryService/CreateApiary", { name })).apiary.id,
    hive: async (apiaryId: string, name: string): Promise<string> =>
      (await ok("HiveService/CreateHive", { apiaryId, name })).hive.id,
    inspect: async (hiveId: string, date: string): Promise<string> =>
      (await ok("InspectionService/CreateInspection", { hiveId, date })).inspection.id,
    harvest: async (hiveId: string, amountKg: number, date: string): Promise<string> =>
      (await ok("HarvestService/CreateHarvest", { hiveId, amountKg, date })).harvest.id,
    dashboard: async (body: Record<string, unknown> = {}) => ok("StatsService/GetDashboard", body),
  };
}

describe.each(targetKinds)("GetDashboard on %s", (kind) => {
  const t = useTestTarget(kind);
  const h = helpers(t);
  const hives: Record<string, string> = {};
  const hiveId = (name: string): string => hives[name] ?? "";

  it("answers zeros and empty lists for an empty tenant", async () => {
    expect(await h.dashboard()).toEqual({});
  });

  it("lists due hives: never inspected first (-1), then most overdue, at the 21-day default", async () => {
    const alpha = await h.apiary("Alpha");
    const beta = await h.apiary("Beta");
    for (const [name, apiary] of [
      ["Never B", beta],
      ["Never A", alpha],
      ["Old 40", alpha],
      ["Old 25", beta],
      ["Edge 21", alpha],
      ["Edge 20", beta],
      ["Fresh", alpha],
    ] as const) {
      hives[name] = await h.hive(apiary, name);
    }
    await h.inspect(hiveId("Old 40"), ago(50));
    await h.inspect(hiveId("Old 40"), ago(40.5));
    await h.inspect(hiveId("Old 25"), ago(25));
    await h.inspect(hiveId("Edge 21"), ago(21 + 1 / 1440));
    await h.inspect(hiveId("Edge 20"), ago(21 - 1 / 1440));
    await h.inspect(hiveId("Fresh"), ago(60));
    await h.inspect(hiveId("Fresh"), ago(3));

    const expected = [
      { hiveId: hiveId("Never A"), hiveName: "Never A", apiaryName: "Alpha", daysSinceLast: -1 },
      { hiveId: hiveId("Never B"), hiveName: "Never B", apiaryName: "Beta", daysSinceLast: -1 },
      { hiveId: hiveId("Old 40"), hiveName: "Old 40", apiaryName: "Alpha", daysSinceLast: 40 },
      { hiveId: hiveId("Old 25"), hiveName: "Old 25", apiaryName: "Beta", daysSinceLast: 25 },
      { hiveId: hiveId("Edge 21"), hiveName: "Edge 21", apiaryName: "Alpha", daysSinceLast: 21 },
    ];
    expect((await h.dashboard()).dueInspections).toEqual(expected);
    expect((await h.dashboard({ thresholdDays: 0 })).dueInspections).toEqual(expected);
    expect((await h.dashboard({ thresholdDays: 21 })).dueInspections).toEqual(expected);
  });

  it("applies a given thresholdDays (a hive is due when at least that many days old)", async () => {
    const due = (await h.dashboard({ thresholdDays: 25 })).dueInspections;
    expect(due.map((d: { hiveName: string }) => d.hiveName)).toEqual([
      "Never A",
      "Never B",
      "Old 40",
      "Old 25",
    ]);
    const all = (await h.dashboard({ thresholdDays: 1 })).dueInspections;
    expect(all.map((d: { daysSinceLast: number }) => d.daysSinceLast)).toEqual([
      -1, -1, 40, 25, 21, 20, 3,
    ]);
    const huge = (await h.dashboard({ thresholdDays: 2_147_483_647 })).dueInspections;
    expect(huge.map((d: { hiveName: string }) => d.hiveName)).toEqual(["Never A", "Never B"]);
  });

  it("rejects a negative thresholdDays with invalid_argument", async () => {
    const r = await t.call("StatsService/GetDashboard", { thresholdDays: -1 });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("invalid_argument");
  });

  it("counts apiaries, live hives and active queens of live hives", async () => {
    const gone = await h.hive(await h.apiary("Gamma"), "Doomed");
    await h.ok("QueenService/CreateQueen", { hiveId: gone, year: 2025 });
    await h.ok("QueenService/CreateQueen", { hiveId: hiveId("Fresh"), year: 2024 });
    // A second queen replaces the first: still one active queen in that hive.
    await h.ok("QueenService/CreateQueen", { hiveId: hiveId("Old 40"), year: 2025 });
    await h.ok("QueenService/CreateQueen", { hiveId: hiveId("Old 40"), year: 2026 });
    expect(await h.dashboard()).toMatchObject({ apiaries: 3, hives: 8, activeQueens: 3 });
    await h.ok("HiveService/DeleteHive", { id: gone });
    const d = await h.dashboard();
    expect(d).toMatchObject({ apiaries: 3, hives: 7, activeQueens: 2 });
    expect(d.dueInspections.some((x: { hiveId: string }) => x.hiveId === gone)).toBe(false);
  });

  it("counts open and overdue tasks and lists the next 5 by dueAt, no dueAt last", async () => {
    const task = async (title: string, dueAt?: string) =>
      (await h.ok("TaskService/CreateTask", { title, dueAt, hiveId: hiveId("Fresh") })).task.id;
    const late2 = await task("late 2", ago(2));
    const late5 = await task("late 5", ago(5));
    const undated = await task("undated");
    const soon = await task("soon", ago(-1));
    const later = await task("later", ago(-10));
    const done = await task("done", ago(9));
    await h.ok("TaskService/SetTaskDone", { id: done, done: true });
    // Personal tasks: the caller's own count; another user's never do.
    const mine = (await h.ok("TaskService/CreateTask", { title: "mine", dueAt: ago(-3) })).task.id;
    const ctx = { ...seedContext(), authorId: "someone-else" };
    await seedChanges(t, [
      upsert(ctx, "task", ctx.newId(), userScope("someone-else"), {
        title: "not yours",
        due_at: ago(30),
        done: false,
        created_at: ctx.now.toISOString(),
      }),
    ]);
    expect(userScope(localUserId)).not.toBe(userScope("someone-else"));

    const d = await h.dashboard();
    expect(d).toMatchObject({ openTasks: 6, overdueTasks: 2 });
    expect(d.nextTasks.map((x: { id: string }) => x.id)).toEqual([late5, late2, soon, mine, later]);
    expect(d.nextTasks[0]).toEqual({
      id: late5,
      title: "late 5",
      dueAt: expect.stringMatching(/Z$/),
    });

    await h.ok("TaskService/SetTaskDone", { id: late5, done: true });
    await h.ok("TaskService/SetTaskDone", { id: soon, done: true });
    const after = await h.dashboard();
    expect(after).toMatchObject({ openTasks: 4, overdueTasks: 1 });
    expect(after.nextTasks.map((x: { id: string }) => x.id)).toEqual([late2, mine, later, undated]);
    expect(after.nextTasks[3]).toEqual({ id: undated, title: "undated" });
  });

  it("lists the 10 most recent inspections by date", async () => {
    const hive = hiveId("Never B");
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await h.inspect(hive, ago(0.1 + i / 10)));
    // With the 7 earlier inspections (3 to 60 days old): 13; the newest 10 are
    // these 6, then Fresh (3 days), Edge 20, Edge 21 and Old 25.
    const recent = (await h.dashboard()).recentInspections;
    expect(recent).toHaveLength(10);
    expect(recent.slice(0, 6).map((r: { id: string }) => r.id)).toEqual(ids);
    expect(recent.slice(6).map((r: { hiveId: string }) => r.hiveId)).toEqual(
      ["Fresh", "Edge 20", "Edge 21", "Old 25"].map((n) => hives[n]),
    );
    expect(recent[0]).toEqual({ id: ids[0], hiveId: hive, date: expect.stringMatching(/Z$/) });
  });

  it("sums honeyKgSeason over the current UTC year, groups honeyHistory by year and month; a deleted harvest drops out", async () => {
    const hive = hiveId("Fresh");
    await h.harvest(hive, 0.1, `${thisYear}-01-01T00:30:00Z`);
    const deleted = await h.harvest(hive, 0.2, `${thisYear}-01-20T10:00:00Z`);
    await h.harvest(hive, 0.2, `${thisYear}-01-31T23:59:59Z`);
    await h.harvest(hive, 12.5, `${thisYear}-03-10T08:00:00Z`);
    await h.harvest(hive, 7, `${thisYear - 1}-12-31T23:30:00Z`);
    await h.harvest(hive, 3, `${thisYear - 1}-07-01T00:00:00Z`);
    const d = await h.dashboard();
    expect(d.honeyKgSeason).toBe(13);
    expect(d.honeyHistory).toEqual([
      { year: thisYear - 1, month: 7, kg: 3 },
      { year: thisYear - 1, month: 12, kg: 7 },
      { year: thisYear, month: 1, kg: 0.5 },
      { year: thisYear, month: 3, kg: 12.5 },
    ]);

    // DeleteHarvest tombstones the HARVEST event: the figures drop.
    await h.ok("HarvestService/DeleteHarvest", { id: deleted });
    const after = await h.dashboard();
    expect(after.honeyKgSeason).toBe(12.8);
    expect(after.honeyHistory[2]).toEqual({ year: thisYear, month: 1, kg: 0.3 });
  });

  it("works over binary protobuf with the typed client", async () => {
    const d = await t.client(StatsService).getDashboard({});
    expect(d.hives).toBe(7);
    expect(d.nextTasks.length).toBeLessThanOrEqual(5);
    expect(d.recentInspections).toHaveLength(10);
  });
});

describe.each(targetKinds)("GetHoneyStats on %s", (kind) => {
  const t = useTestTarget(kind);
  const h = helpers(t);
  let alpha: string;
  let beta: string;
  let queenId: string;
  let old: string;
  beforeAll(async () => {
    alpha = await h.apiary("Alpha");
    beta = await h.apiary("Beta");
    const withQueen = await h.hive(alpha, "Queenright");
    const queenless = await h.hive(beta, "Queenless");
    queenId = (
      await h.ok("QueenService/CreateQueen", {
        hiveId: withQueen,
        year: 2025,
        introducedAt: "2025-03-01T00:00:00Z",
      })
    ).queen.id;
    old = await h.harvest(withQueen, 10, "2025-06-01T00:00:00Z");
    await h.harvest(withQueen, 5, "2026-06-01T00:00:00Z");
    await h.harvest(queenless, 2.5, "2026-07-01T00:00:00Z");
    await h.harvest(queenless, 0.1, "2026-07-02T00:00:00Z");
  });

  const stats = async (year?: number) => h.ok("StatsService/GetHoneyStats", { year });

  it("sums per queen, per apiary and per year over all years when year is 0", async () => {
    const all = { perQueen: [], perApiary: [], perYear: [] };
    Object.assign(all, await stats(0));
    expect(all).toEqual({
      perQueen: [
        { key: queenId, label: "2025 queen of Queenright", kg: 15 },
        // Honey recorded while no queen reigned (key "" is omitted on the wire).
        { label: "No queen recorded", kg: 2.6 },
      ],
      perApiary: [
        { key: alpha, label: "Alpha", kg: 15 },
        { key: beta, label: "Beta", kg: 2.6 },
      ],
      perYear: [
        { key: "2025", label: "2025", kg: 10 },
        { key: "2026", label: "2026", kg: 7.6 },
      ],
    });
    expect(await stats()).toEqual(all);
  });

  it("restricts every sum to one calendar year", async () => {
    expect(await stats(2026)).toEqual({
      perQueen: [
        { key: queenId, label: "2025 queen of Queenright", kg: 5 },
        { label: "No queen recorded", kg: 2.6 },
      ],
      perApiary: [
        { key: beta, label: "Beta", kg: 2.6 },
        { key: alpha, label: "Alpha", kg: 5 },
      ].sort((a, b) => b.kg - a.kg),
      perYear: [{ key: "2026", label: "2026", kg: 7.6 }],
    });
    expect(await stats(1999)).toEqual({});
  });

  it("drops a deleted harvest from every sum", async () => {
    await h.ok("HarvestService/DeleteHarvest", { id: old });
    const all = await stats(0);
    expect(all.perQueen[0]).toEqual({ key: queenId, label: "2025 queen of Queenright", kg: 5 });
    expect(all.perYear).toEqual([{ key: "2026", label: "2026", kg: 7.6 }]);
    expect(await stats(2025)).toEqual({});
  });

  it("rejects a negative year with invalid_argument", async () => {
    const r = await t.call("StatsService/GetHoneyStats", { year: -2025 });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("invalid_argument");
  });

  it("works over binary protobuf with the typed client", async () => {
    const s = await t.client(StatsService).getHoneyStats({ year: 2026 });
    expect(s.perYear.map((y) => [y.key, y.kg])).toEqual([["2026", 7.6]]);
  });
});

describe.each(targetKinds)("honey sums beyond the largest double on %s", (kind) => {
  const t = useTestTarget(kind);
  const h = helpers(t);

  it("answer Infinity (the exact sum rounded to a double), never an error", async () => {
    const hive = await h.hive(await h.apiary("Huge"), "Huge");
    // Each amount is a valid double; their sum is not.
    for (let i = 0; i < 2; i++) {
      await h.ok("HarvestService/CreateHarvest", { hiveId: hive, amountKg: 1.7e308 });
    }
    const honey = await t.call("StatsService/GetHoneyStats", {});
    expect(honey.status, JSON.stringify(honey.body)).toBe(200);
    expect(honey.body.perYear.map((y: { kg: unknown }) => y.kg)).toEqual(["Infinity"]);
    expect(honey.body.perApiary.map((y: { kg: unknown }) => y.kg)).toEqual(["Infinity"]);
    const dashboard = await t.call("StatsService/GetDashboard", {});
    expect(dashboard.status, JSON.stringify(dashboard.body)).toBe(200);
    expect(dashboard.body.honeyKgSeason).toBe("Infinity");
  });
});

describe.each(targetKinds)("the figures after an update or delete (issue 25) on %s", (kind) => {
  const t = useTestTarget(kind);
  const h = helpers(t);

  it("a corrected or deleted inspection moves the due list and the recent inspections", async () => {
    const hive = await h.hive(await h.apiary("Home"), "Corrected");
    const first = await h.inspect(hive, ago(30));
    const last = await h.inspect(hive, ago(2));
    const before = await h.dashboard();
    expect(before.dueInspections).toBeUndefined();
    expect(before.recentInspections.map((r: { id: string }) => r.id)).toEqual([last, first]);
    // The last one was really 25 days ago.
    const { inspection } = await h.ok("InspectionService/GetInspection", { id: last });
    await h.ok("InspectionService/UpdateInspection", {
      inspection: { ...inspection, date: ago(25) },
    });
    const corrected = await h.dashboard();
    expect(corrected.dueInspections).toEqual([
      { hiveId: hive, hiveName: "Corrected", apiaryName: "Home", daysSinceLast: 25 },
    ]);
    expect(corrected.recentInspections.map((r: { id: string }) => r.id)).toEqual([last, first]);
    await h.ok("InspectionService/DeleteInspection", { id: last });
    const deleted = await h.dashboard();
    expect(deleted.dueInspections[0].daysSinceLast).toBe(30);
    expect(deleted.recentInspections.map((r: { id: string }) => r.id)).toEqual([first]);
  });

  it("the honey of a deleted queen's reign counts for the queen who reigns again in her place", async () => {
    const hive = await h.hive(await h.apiary("Honey"), "Dynasty");
    const queen = async (year: number, introducedAt: string): Promise<string> =>
      (await h.ok("QueenService/CreateQueen", { hiveId: hive, year, introducedAt })).queen.id;
    const q1 = await queen(2024, "2024-05-01T00:00:00Z");
    const q2 = await queen(2025, "2025-06-01T00:00:00Z");
    await h.harvest(hive, 4, "2025-08-01T00:00:00Z");
    await h.harvest(hive, 1, "2024-08-01T00:00:00Z");
    expect((await h.ok("StatsService/GetHoneyStats", { year: 0 })).perQueen).toEqual([
      { key: q2, label: "2025 queen of Dynasty", kg: 4 },
      { key: q1, label: "2024 queen of Dynasty", kg: 1 },
    ]);
    await h.ok("QueenService/DeleteQueen", { id: q2 });
    const after = await h.ok("StatsService/GetHoneyStats", { year: 0 });
    expect(after.perQueen).toEqual([{ key: q1, label: "2024 queen of Dynasty", kg: 5 }]);
    expect(after.perYear).toEqual([
      { key: "2024", label: "2024", kg: 1 },
      { key: "2025", label: "2025", kg: 4 },
    ]);
  });
});
