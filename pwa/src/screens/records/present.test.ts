import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { QueenSchema } from "@hivekeep/proto";
import { describe, expect, it } from "vitest";
import { makeFormat } from "../../format.ts";
import { queenDeleteEffect, taskDueDate, taskNames } from "./present.ts";
import { endOfDay } from "./rules.ts";

describe("taskNames", () => {
  const hives = [
    { id: "h1", name: "Volk 1", apiaryId: "a2" },
    { id: "h2", name: "Volk 2", apiaryId: "" },
  ];
  const apiaries = [
    { id: "a1", name: "Lindenhof" },
    { id: "a2", name: "Rapsfeld" },
  ];

  it("names a hive task's hive and the apiary where the hive stands now", () => {
    const names = taskNames([{ id: "t1", hiveId: "h1", apiaryId: "a1" }], hives, apiaries);
    expect(names.get("t1")).toEqual({ hiveName: "Volk 1", apiaryName: "Rapsfeld" });
  });

  it("names an apiary task's apiary; a personal task and removed records have no names", () => {
    const names = taskNames(
      [
        { id: "apiary", hiveId: "", apiaryId: "a1" },
        { id: "personal", hiveId: "", apiaryId: "" },
        { id: "gone", hiveId: "removed", apiaryId: "" },
        { id: "unplaced", hiveId: "h2", apiaryId: "" },
      ],
      hives,
      apiaries,
    );
    expect(names.get("apiary")).toEqual({ hiveName: undefined, apiaryName: "Lindenhof" });
    expect(names.get("personal")).toEqual({ hiveName: undefined, apiaryName: undefined });
    expect(names.get("gone")).toEqual({ hiveName: undefined, apiaryName: undefined });
    expect(names.get("unplaced")).toEqual({ hiveName: "Volk 2", apiaryName: undefined });
  });
});

describe("taskDueDate", () => {
  const en = makeFormat("en-GB");
  const now = new Date(2026, 5, 15, 12, 0);

  it("gives a whole day as a date, and how far it is", () => {
    const due = endOfDay(new Date(2026, 5, 17));
    expect(taskDueDate(en, { dueAt: timestampFromDate(due) }, "upcoming", now)).toBe(
      `${en.date(due)} (in 2 days)`,
    );
  });

  it("gives a time of day when the task has one", () => {
    const due = new Date(2026, 5, 13, 9, 30);
    expect(taskDueDate(en, { dueAt: timestampFromDate(due) }, "overdue", now)).toBe(
      `${en.dateTime(due)} (2 days ago)`,
    );
  });

  it('adds nothing to the badge\'s "Due today" but a time of day', () => {
    expect(taskDueDate(en, { dueAt: timestampFromDate(endOfDay(now)) }, "today", now)).toBe("");
    const at = new Date(2026, 5, 15, 14, 0);
    expect(taskDueDate(en, { dueAt: timestampFromDate(at) }, "today", now)).toBe("14:00");
  });

  it("is undefined without a due date", () => {
    expect(taskDueDate(en, { dueAt: undefined }, "none", now)).toBeUndefined();
  });
});

describe("queenDeleteEffect", () => {
  const ts = (d: Date) => timestampFromDate(d);
  const queen = (id: string, introduced: Date, replaced?: Date) =>
    create(QueenSchema, {
      id,
      active: replaced === undefined,
      introducedAt: ts(introduced),
      ...(replaced ? { replacedAt: ts(replaced) } : {}),
    });
  const may2024 = new Date(2024, 4, 1);
  const june2025 = new Date(2025, 5, 1);
  const oldest = queen("q2023", new Date(2023, 4, 1), may2024);
  const before = queen("q2024", may2024, june2025);
  const reigning = queen("q2025", june2025);

  it("gives the reign back to the queen whose reign ended when hers began", () => {
    expect(queenDeleteEffect(reigning, [oldest, reigning, before])).toEqual({
      kind: "reignsAgain",
      queen: before,
    });
  });

  it("leaves the hive queenless when no reign ended as hers began", () => {
    expect(queenDeleteEffect(reigning, [reigning])).toEqual({ kind: "queenless" });
    // A queen replaced at another time is not the one she replaced.
    expect(queenDeleteEffect(reigning, [oldest, reigning])).toEqual({ kind: "queenless" });
  });

  it("takes a replaced queen out of the history only", () => {
    expect(queenDeleteEffect(before, [oldest, reigning, before])).toEqual({ kind: "history" });
  });
});
