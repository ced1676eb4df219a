import { create } from "@bufbuild/protobuf";
import {
  EventSchema,
  EventType,
  HiveSchema,
  HiveStatus,
  QueenSchema,
  TaskSchema,
  TreatmentSchema,
} from "@hivekeep/proto";
import { describe, expect, it } from "vitest";
import { toTimestamp } from "../../format.ts";
import {
  compareHives,
  fold,
  inspectionAge,
  isInactive,
  matchesSearch,
  movedEnds,
  placementHistory,
  reigningQueen,
  reigningQueens,
  runningWithdrawals,
  statusChange,
  tasksWithDoneHere,
} from "./hive-logic.ts";

const at = (iso: string) => toTimestamp(new Date(iso));
const hive = (name: string, status = HiveStatus.ACTIVE, id = name, qrCode = "") =>
  create(HiveSchema, { id, name, status, qrCode });

describe("hives list order and search", () => {
  it("puts kept hives first, then lost and dissolved ones, each by name in natural order", () => {
    const hives = [
      hive("Hive 10"),
      hive("Dissolved A", HiveStatus.DISSOLVED),
      hive("hive 2"),
      hive("Lost B", HiveStatus.LOST),
      hive("Ableger", HiveStatus.NUC),
      hive("Weisellos", HiveStatus.QUEENLESS),
    ];
    expect(hives.sort(compareHives).map((h) => h.name)).toEqual([
      "Ableger",
      "hive 2",
      "Hive 10",
      "Weisellos",
      "Dissolved A",
      "Lost B",
    ]);
  });

  it("knows lost and dissolved as inactive", () => {
    expect(isInactive(HiveStatus.LOST)).toBe(true);
    expect(isInactive(HiveStatus.DISSOLVED)).toBe(true);
    expect(isInactive(HiveStatus.ACTIVE)).toBe(false);
    expect(isInactive(HiveStatus.QUEENLESS)).toBe(false);
  });

  it("matches every word of the query in the name or QR code, ignoring case and accents", () => {
    const h = hive("Königin Süd 3", HiveStatus.ACTIVE, "x", "QR-0042");
    expect(matchesSearch(h, "")).toBe(true);
    expect(matchesSearch(h, "  ")).toBe(true);
    expect(matchesSearch(h, "konig")).toBe(true);
    expect(matchesSearch(h, "SUD 3")).toBe(true);
    expect(matchesSearch(h, "0042")).toBe(true);
    expect(matchesSearch(h, "nord")).toBe(false);
    expect(fold(" Äpfel ")).toBe("apfel");
  });
});

describe("inspectionAge", () => {
  const now = new Date(2026, 5, 30, 10, 0);
  it("says never when there is no inspection", () => {
    expect(inspectionAge(undefined, now)).toEqual({ kind: "never" });
  });
  it("counts whole 24-hour days as the overview does, and marks a hive due from 21 days", () => {
    // now: 30 June 10:00 local.
    const age = (d: Date) => inspectionAge(d, now);
    expect(age(new Date(2026, 5, 30, 7, 0))).toEqual({ kind: "days", days: 0, due: false });
    // Yesterday evening is less than 24 hours ago: still 0 whole days.
    expect(age(new Date(2026, 5, 29, 23, 0))).toEqual({ kind: "days", days: 0, due: false });
    expect(age(new Date(2026, 5, 29, 10, 0))).toEqual({ kind: "days", days: 1, due: false });
    expect(age(new Date(2026, 5, 9, 10, 1))).toEqual({ kind: "days", days: 20, due: false });
    expect(age(new Date(2026, 5, 9, 10, 0))).toEqual({ kind: "days", days: 21, due: true });
    expect(age(new Date(2026, 5, 9, 9, 0))).toEqual({ kind: "days", days: 21, due: true });
  });
});

describe("reigning queen", () => {
  it("on a tie of introduction, is the one with the greater id, as the server's repair keeps", () => {
    const q = (id: string) =>
      create(QueenSchema, {
        id,
        hiveId: "h",
        active: true,
        introducedAt: at("2025-05-01T00:00:00Z"),
      });
    expect(reigningQueen([q("b"), q("a")])?.id).toBe("b");
    expect(reigningQueen([q("a"), q("b")])?.id).toBe("b");
  });

  it("is the active queen introduced last", () => {
    const old = create(QueenSchema, {
      id: "a",
      hiveId: "h",
      active: true,
      introducedAt: at("2024-05-01T00:00:00Z"),
    });
    const newer = create(QueenSchema, {
      id: "b",
      hiveId: "h",
      active: true,
      introducedAt: at("2025-05-01T00:00:00Z"),
    });
    const replaced = create(QueenSchema, {
      id: "c",
      hiveId: "h",
      active: false,
      introducedAt: at("2026-05-01T00:00:00Z"),
    });
    expect(reigningQueen([old, replaced, newer])?.id).toBe("b");
    expect(reigningQueen([replaced])).toBeUndefined();
    expect(reigningQueen([])).toBeUndefined();
  });
  it("is found per hive", () => {
    const q1 = create(QueenSchema, { id: "1", hiveId: "h1", active: true });
    const q2 = create(QueenSchema, { id: "2", hiveId: "h2", active: true });
    const map = reigningQueens([q1, q2]);
    expect(map.get("h1")?.id).toBe("1");
    expect(map.get("h2")?.id).toBe("2");
    expect(map.get("h3")).toBeUndefined();
  });
});

describe("withdrawal period", () => {
  const now = new Date("2026-06-30T10:00:00Z");
  const t = (id: string, until?: string) =>
    create(TreatmentSchema, { id, product: id, withdrawalUntil: until ? at(until) : undefined });
  it("lists the running ones, ending last first", () => {
    const list = [
      t("soon", "2026-07-01T00:00:00Z"),
      t("over", "2026-06-01T00:00:00Z"),
      t("late", "2026-09-01T00:00:00Z"),
      t("none"),
    ];
    expect(runningWithdrawals(list, now).map((x) => x.id)).toEqual(["late", "soon"]);
  });
});

describe("placement history", () => {
  const created = (date: string, apiaryId: string) =>
    create(EventSchema, { type: EventType.CREATED, date: at(date), apiaryId });
  const moved = (date: string, from: string, to: string) =>
    create(EventSchema, {
      type: EventType.MOVED,
      date: at(date),
      apiaryId: to,
      detailJson: JSON.stringify({ from, to }),
    });

  it("builds the stays from CREATED and MOVED events, newest first", () => {
    const events = [
      moved("2026-05-01T00:00:00Z", "B", "C"),
      create(EventSchema, { type: EventType.INSPECTION, date: at("2026-04-01T00:00:00Z") }),
      moved("2026-03-01T00:00:00Z", "A", "B"),
      created("2026-01-01T00:00:00Z", "A"),
    ];
    expect(placementHistory(events)).toEqual([
      { apiaryId: "C", from: new Date("2026-05-01T00:00:00Z"), until: undefined },
      {
        apiaryId: "B",
        from: new Date("2026-03-01T00:00:00Z"),
        until: new Date("2026-05-01T00:00:00Z"),
      },
      {
        apiaryId: "A",
        from: new Date("2026-01-01T00:00:00Z"),
        until: new Date("2026-03-01T00:00:00Z"),
      },
    ]);
  });

  it("keeps the first stay with an unknown start when CREATED is not on record", () => {
    expect(placementHistory([moved("2026-03-01T00:00:00Z", "A", "B")])).toEqual([
      { apiaryId: "B", from: new Date("2026-03-01T00:00:00Z"), until: undefined },
      { apiaryId: "A", from: undefined, until: new Date("2026-03-01T00:00:00Z") },
    ]);
  });

  it("ends the last stay of a deleted hive when it was deleted: it stands nowhere now", () => {
    const events = [moved("2026-03-01T00:00:00Z", "A", "B"), created("2026-01-01T00:00:00Z", "A")];
    const deleted = new Date("2026-06-01T00:00:00Z");
    expect(placementHistory(events, deleted)[0]).toEqual({
      apiaryId: "B",
      from: new Date("2026-03-01T00:00:00Z"),
      until: deleted,
    });
    // Deleted before the (back-dated) move's date: the stay ends where it began, never before.
    const early = new Date("2026-02-01T00:00:00Z");
    expect(placementHistory(events, early)[0]?.until).toEqual(new Date("2026-03-01T00:00:00Z"));
  });

  it("places a move back-dated to the creation instant after the creation", () => {
    const events = [moved("2026-01-01T00:00:00Z", "A", "B"), created("2026-01-01T00:00:00Z", "A")];
    expect(placementHistory(events).map((s) => s.apiaryId)).toEqual(["B", "A"]);
  });

  it("is empty without events", () => {
    expect(placementHistory([])).toEqual([]);
  });

  it("reads the ends of a MOVED event and the statuses of a STATUS event", () => {
    expect(movedEnds('{"from":"a","to":"b"}')).toEqual({ from: "a", to: "b" });
    expect(movedEnds("")).toEqual({ from: "", to: "" });
    expect(movedEnds("null")).toEqual({ from: "", to: "" });
    expect(statusChange('{"from":1,"to":3}')).toEqual({ from: 1, to: 3 });
    expect(statusChange("{}")).toBeUndefined();
    expect(statusChange("nope")).toBeUndefined();
  });
});

describe("tasksWithDoneHere", () => {
  const task = (id: string) => create(TaskSchema, { id, title: id });
  it("lists the open tasks, then those ticked on this visit, each once", () => {
    const rows = tasksWithDoneHere([task("a"), task("b")], [task("c"), task("b")]);
    expect(rows.map((r) => [r.task.id, r.done])).toEqual([
      ["a", false],
      ["b", true],
      ["c", true],
    ]);
  });
  it("is empty when nothing is open or ticked", () => {
    expect(tasksWithDoneHere([], [])).toEqual([]);
  });
});
