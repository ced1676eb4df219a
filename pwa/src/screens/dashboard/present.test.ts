import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { InspectionSchema, MarkingColor } from "@hivekeep/proto";
import { describe, expect, it } from "vitest";
import { makeFormat } from "../../format.ts";
import {
  dueWhen,
  figures,
  honeyChart,
  joinQueenHoney,
  joinRecent,
  readingsLine,
} from "./present.ts";

const en = makeFormat("en-GB");
const de = makeFormat("de-DE");
const now = new Date("2026-06-15T12:00:00Z");

describe("joinRecent", () => {
  const date = timestampFromDate(new Date("2026-06-10T08:00:00Z"));
  const visit = create(InspectionSchema, {
    id: "i1",
    hiveId: "h1",
    date,
    note: "  Calm colony.  ",
    queenSeen: true,
    weightKg: 42.5,
  });

  it("names each visit's hive and says what it holds, in the visits' order", () => {
    const rows = joinRecent([visit], [{ id: "h1", name: "Volk 1" }]);
    expect(rows).toEqual([
      {
        id: "i1",
        hiveId: "h1",
        date: new Date("2026-06-10T08:00:00Z"),
        hiveName: "Volk 1",
        readings: [{ kind: "weight", place: "hive", value: 42.5 }],
        note: "Calm colony.",
      },
    ]);
  });

  it("keeps a visit whose hive is gone, without its name", () => {
    const [row] = joinRecent([visit], []);
    expect(row).toMatchObject({ id: "i1", hiveName: undefined });
  });
});

describe("joinQueenHoney", () => {
  it("gives each queen her year, marking and hive; no queen and a removed one say so", () => {
    const rows = joinQueenHoney(
      [
        { key: "q1", kg: 20 },
        { key: "", kg: 7 },
        { key: "q-removed", kg: 3 },
        { key: "q2", kg: 1 },
      ],
      [
        { id: "q1", year: 2025, marking: MarkingColor.YELLOW, hiveId: "h1" },
        { id: "q2", year: 2024, marking: MarkingColor.RED, hiveId: "h-removed" },
      ],
      [{ id: "h1", name: "Volk 1" }],
    );
    expect(rows).toEqual([
      { key: "q1", kg: 20, year: 2025, marking: MarkingColor.YELLOW, hiveName: "Volk 1" },
      { key: "", kg: 7, year: undefined, marking: undefined, hiveName: undefined },
      { key: "q-removed", kg: 3, year: undefined, marking: undefined, hiveName: undefined },
      { key: "q2", kg: 1, year: 2024, marking: MarkingColor.RED, hiveName: undefined },
    ]);
  });
});

describe("figures", () => {
  const d = {
    apiaries: 2,
    hives: 1234,
    activeQueens: 3,
    openTasks: 4,
    overdueTasks: 0,
    honeyKgSeason: 21.5,
  };

  it("formats each figure in the language's numbers, in the tiles' order", () => {
    expect(figures(de, d)).toEqual([
      { key: "apiaries", value: "2", bad: false },
      { key: "hives", value: "1.234", bad: false },
      { key: "activeQueens", value: "3", bad: false },
      { key: "openTasks", value: "4", bad: false },
      { key: "overdueTasks", value: "0", bad: false },
      { key: "honeySeason", value: de.kg(21.5), bad: false },
    ]);
  });

  it("marks overdue tasks only when there are some", () => {
    const overdue = figures(en, { ...d, overdueTasks: 2 }).find((f) => f.key === "overdueTasks");
    expect(overdue).toEqual({ key: "overdueTasks", value: "2", bad: true });
  });
});

describe("dueWhen", () => {
  it("gives the date and how far it is from now", () => {
    const due = new Date("2026-06-17T12:00:00Z");
    expect(dueWhen(en, timestampFromDate(due), now)).toBe(
      `${en.date(due)} (${en.relativeDays(due, now)})`,
    );
    expect(dueWhen(en, timestampFromDate(due), now)).toContain("in 2 days");
  });

  it("is undefined without a due date", () => {
    expect(dueWhen(en, undefined, now)).toBeUndefined();
  });
});

describe("readingsLine", () => {
  const outside = (value: string) => `${value} outside`;

  it("joins the readings, words the outside ones, and keeps each on one line", () => {
    const line = readingsLine(
      en,
      [
        { kind: "weight", place: "hive", value: 42.5 },
        { kind: "temperature", place: "outside", value: 21 },
      ],
      outside,
    );
    expect(line).toBe("42.5\u00a0kg · 21°C\u00a0outside");
    expect(line.split(" · ").every((part) => !part.includes(" "))).toBe(true);
  });

  it("is empty without readings", () => {
    expect(readingsLine(en, [], outside)).toBe("");
  });
});

describe("honeyChart", () => {
  it("names the months, sums them and finds the best one", () => {
    const chart = honeyChart(
      "en-GB",
      [
        { year: 2026, month: 4, kg: 5 },
        { year: 2026, month: 5, kg: 12.5 },
      ],
      now,
    );
    expect(chart.bars).toHaveLength(12);
    expect(chart.labels.at(-1)).toBe("June 2026");
    expect(chart.values.at(-2)).toBe(12.5);
    expect(chart.total).toBe(17.5);
    expect(chart.most).toEqual({ label: "May 2026", kg: 12.5 });
    expect(chart.older).toBe(0);
  });

  it("has no best month when the window holds no honey, and counts the months before it", () => {
    const chart = honeyChart("en-GB", [{ year: 2020, month: 7, kg: 3 }], now);
    expect(chart.bars[0]).toEqual({ year: 2024, month: 7, kg: 0 });
    expect(chart.most).toBeUndefined();
    expect(chart.older).toBe(1);
  });

  it("is empty without a harvest", () => {
    expect(honeyChart("de-DE", [], now)).toMatchObject({ bars: [], total: 0, most: undefined });
  });
});
