import { describe, expect, it } from "vitest";
import { byEntity, codeOf, fakeContext } from "../../testing/command-context.ts";
import { EventType } from "./event.ts";
import {
  type CreateQueenInput,
  createQueen,
  defaultMarking,
  deleteQueen,
  MarkingColor,
  type QueenHive,
  updateQueen,
} from "./queen.ts";

const now = new Date("2026-05-01T10:00:00.000Z");

/** Every test here runs on 1 May 2026 (as the default user "user-1"). */
const at = { now };

const input: CreateQueenInput = {
  hiveId: "hive-1",
  year: 2026,
  marking: MarkingColor.UNSPECIFIED,
  origin: "",
  breederNumber: "",
  note: "",
};
const hive: QueenHive = {
  id: "hive-1",
  apiaryId: "apiary-now",
  apiaryAtIntroduction: "apiary-then",
  activeQueens: [],
};

describe("defaultMarking", () => {
  it.each([
    [2021, MarkingColor.WHITE],
    [2026, MarkingColor.WHITE],
    [2022, MarkingColor.YELLOW],
    [2027, MarkingColor.YELLOW],
    [2023, MarkingColor.RED],
    [2028, MarkingColor.RED],
    [2024, MarkingColor.GREEN],
    [2029, MarkingColor.GREEN],
    [2025, MarkingColor.BLUE],
    [2030, MarkingColor.BLUE],
  ])("year %i is marked %s", (year, colour) => {
    expect(defaultMarking(year)).toBe(colour);
    // On a day when every one of these years has come (a queen's year cannot be in the future).
    const later = fakeContext({ now: new Date("2031-01-01T00:00:00.000Z") });
    const { changes } = createQueen(later, hive, { ...input, year });
    expect(byEntity(changes, "queen")[0]?.payload.marking).toBe(colour);
  });
});

describe("createQueen", () => {
  it("writes an active queen in the hive's current apiary, introduced now by default", () => {
    const { id, changes } = createQueen(fakeContext(at), hive, { ...input, origin: "own" });
    expect(changes.map((c) => c.entity)).toEqual(["queen", "event"]);
    const [queen, event] = changes;
    expect(queen).toMatchObject({ entityId: id, scopeId: "apiary-now", op: "upsert" });
    expect(queen?.payload).toEqual({
      hive_id: "hive-1",
      year: 2026,
      marking: MarkingColor.WHITE,
      origin: "own",
      breeder_number: "",
      introduced_at: now.toISOString(),
      replaced_at: null,
      active: true,
      note: "",
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    });
    // No queen reigned: only QUEEN_INTRODUCED, frozen at the apiary of introduced_at.
    expect(event?.scopeId).toBe("apiary-then");
    expect(event?.payload).toMatchObject({
      type: EventType.QUEEN_INTRODUCED,
      apiary_id: "apiary-then",
      hive_id: "hive-1",
      queen_id: id,
      ref_entity: "queen",
      ref_id: id,
      date: now.toISOString(),
    });
  });

  it("keeps a marking that is sent", () => {
    const { changes } = createQueen(fakeContext(at), hive, { ...input, marking: MarkingColor.RED });
    expect(changes[0]?.payload.marking).toBe(MarkingColor.RED);
  });

  it("replaces the active queen at the new introduced_at and records REPLACED before INTRODUCED", () => {
    const introducedAt = "2026-04-20T08:00:00.000Z";
    const { id, changes } = createQueen(
      fakeContext(at),
      { ...hive, activeQueens: [{ id: "old", year: 2024 }] },
      { ...input, introducedAt },
    );
    expect(changes.map((c) => `${c.entity}/${c.entityId}`)).toEqual([
      "queen/old",
      `event/${changes[1]?.entityId}`,
      `queen/${id}`,
      `event/${changes[3]?.entityId}`,
    ]);
    expect(changes[0]?.payload).toEqual({
      active: false,
      replaced_at: introducedAt,
      updated_at: now.toISOString(),
    });
    expect(changes[1]?.payload).toMatchObject({
      type: EventType.QUEEN_REPLACED,
      queen_id: "old",
      ref_id: "old",
      date: introducedAt,
    });
    expect(changes[3]?.payload).toMatchObject({ type: EventType.QUEEN_INTRODUCED, queen_id: id });
    expect(changes[2]?.payload.introduced_at).toBe(introducedAt);
    // Later changes carry greater stamps, so the feed and the event log keep the order.
    const hlcs = changes.map((c) => c.hlc);
    expect([...hlcs].sort()).toEqual(hlcs);
  });

  it("requires hiveId and year, checks values, then the hive", () => {
    expect(codeOf(() => createQueen(fakeContext(at), hive, { ...input, hiveId: "" }))).toBe(
      "invalid:hiveId",
    );
    expect(codeOf(() => createQueen(fakeContext(at), hive, { ...input, year: 0 }))).toBe(
      "invalid:year",
    );
    expect(codeOf(() => createQueen(fakeContext(at), hive, { ...input, year: -3 }))).toBe(
      "invalid:year",
    );
    expect(
      codeOf(() => createQueen(fakeContext(at), hive, { ...input, marking: 42 as MarkingColor })),
    ).toBe("invalid:marking");
    expect(codeOf(() => createQueen(fakeContext(at), undefined, input))).toBe("not_found:");
  });
});

describe("updateQueen", () => {
  const state = { id: "q1", scopeId: "apiary-now" };
  const update = {
    id: "q1",
    hiveId: "hive-1",
    year: 2025,
    marking: MarkingColor.UNSPECIFIED,
    origin: "",
    breederNumber: "",
    note: "",
    active: false,
  };

  it("overwrites every field; left out means default, hive_id is never written", () => {
    const [change, ...rest] = updateQueen(fakeContext(at), state, update);
    expect(rest).toEqual([]);
    expect(change).toMatchObject({ entity: "queen", entityId: "q1", scopeId: "apiary-now" });
    expect(change?.payload).toEqual({
      year: 2025,
      marking: MarkingColor.BLUE,
      origin: "",
      breeder_number: "",
      introduced_at: now.toISOString(),
      replaced_at: null,
      active: false,
      note: "",
      updated_at: now.toISOString(),
    });
  });

  it("fails with invalid when the queen message, its hiveId or its year is missing, not_found for unknown ids", () => {
    expect(codeOf(() => updateQueen(fakeContext(at), state, undefined))).toBe("invalid:queen");
    expect(codeOf(() => updateQueen(fakeContext(at), state, { ...update, hiveId: "" }))).toBe(
      "invalid:queen.hiveId",
    );
    expect(codeOf(() => updateQueen(fakeContext(at), state, { ...update, year: 0 }))).toBe(
      "invalid:year",
    );
    expect(codeOf(() => updateQueen(fakeContext(at), undefined, update))).toBe("not_found:");
  });
});

describe("a queen's year and introduction cannot lie in the future", () => {
  const update = {
    id: "q1",
    hiveId: "hive-1",
    year: 2025,
    marking: MarkingColor.UNSPECIFIED,
    origin: "",
    breederNumber: "",
    note: "",
    active: true,
  };
  const state = { id: "q1", scopeId: "apiary-now" };

  it("refuses a year after the current one and an introduction more than a day ahead, naming the field", () => {
    expect(codeOf(() => createQueen(fakeContext(at), hive, { ...input, year: 2027 }))).toBe(
      "invalid:year",
    );
    const ahead = "2026-05-03T10:00:00.000Z"; // now is 2026-05-01T10:00Z
    expect(
      codeOf(() => createQueen(fakeContext(at), hive, { ...input, introducedAt: ahead })),
    ).toBe("invalid:introducedAt");
    expect(codeOf(() => updateQueen(fakeContext(at), state, { ...update, year: 2027 }))).toBe(
      "invalid:queen.year",
    );
    expect(
      codeOf(() => updateQueen(fakeContext(at), state, { ...update, introducedAt: ahead })),
    ).toBe("invalid:queen.introducedAt");
    // Within the day of tolerance; a queen of this year.
    const soon = "2026-05-02T09:00:00.000Z";
    expect(createQueen(fakeContext(at), hive, { ...input, introducedAt: soon }).id).toBe("id-1");
    expect(updateQueen(fakeContext(at), state, { ...update, year: 2026 })).toHaveLength(1);
  });
});

describe("deleteQueen", () => {
  const reign = (id: string, year: number, start: string, replacedAt: string | null) => ({
    id,
    scopeId: "apiary-now",
    year,
    start,
    replacedAt,
    active: replacedAt === null,
  });
  const q1 = reign("q1", 2024, "2024-05-01T00:00:00.000Z", "2025-06-01T00:00:00.000Z");
  const q2 = reign("q2", 2025, "2025-06-01T00:00:00.000Z", "2026-03-01T00:00:00.000Z");
  const q3 = reign("q3", 2026, "2026-03-01T00:00:00.000Z", null);
  const event = (id: string, type: EventType, refId: string, detail = {}) => ({
    id,
    scopeId: "apiary-then",
    type,
    apiaryId: "apiary-then",
    refId,
    detail,
  });
  const events = [
    event("e1", EventType.QUEEN_INTRODUCED, "q1"),
    event("e2", EventType.QUEEN_REPLACED, "q1", { replacedBy: "q2" }),
    event("e3", EventType.QUEEN_INTRODUCED, "q2", { replaces: ["q1"] }),
    event("e4", EventType.QUEEN_REPLACED, "q2", { replacedBy: "q3" }),
    event("e5", EventType.QUEEN_INTRODUCED, "q3", { replaces: ["q2"] }),
  ];
  const inspection = {
    entity: "inspection" as const,
    event: { type: EventType.INSPECTION, title: "Inspection" },
    state: {
      id: "i1",
      scopeId: "apiary-then",
      hiveId: "hive-1",
      date: "2025-08-01T00:00:00.000Z",
      apiaryId: "apiary-then",
      queenId: "q2",
      events: [
        {
          id: "e9",
          scopeId: "apiary-then",
          type: EventType.INSPECTION,
          date: "2025-08-01T00:00:00.000Z",
          apiaryId: "apiary-then",
          queenId: "q2",
          title: "Inspection",
          amountKg: 0,
        },
      ],
    },
  };
  const state = (queen: typeof q1, others: (typeof q1)[], records = [inspection]) => ({
    hiveId: "hive-1",
    queen,
    others,
    events,
    scopeId: "apiary-now",
    records,
  });
  const summary = (changes: ReturnType<typeof deleteQueen>) =>
    changes.map((c) => `${c.op} ${c.entity} ${c.entityId}`);

  it("a replaced queen: the one she replaced reigns until her end, with a true QUEEN_REPLACED; her records follow", () => {
    const changes = deleteQueen(fakeContext(at), state(q2, [q1, q3]), "q2");
    expect(summary(changes)).toEqual([
      "delete queen q2",
      "delete event e3",
      "delete event e4",
      "upsert queen q1",
      "delete event e2",
      "upsert event id-1",
      "upsert inspection i1",
      "delete event e9",
      "upsert event id-2",
    ]);
    expect(changes[3]?.payload).toEqual({
      replaced_at: "2026-03-01T00:00:00.000Z",
      active: false,
      updated_at: now.toISOString(),
    });
    expect(changes[5]?.payload).toMatchObject({
      type: EventType.QUEEN_REPLACED,
      date: "2026-03-01T00:00:00.000Z",
      queen_id: "q1",
      ref_id: "q1",
      apiary_id: "apiary-then",
      title: "Queen 2024 replaced",
      detail_json: JSON.stringify({ replacedBy: "q3" }),
    });
    expect(changes[6]?.payload).toMatchObject({ queen_id: "q1" });
    expect(changes[8]?.payload).toMatchObject({ queen_id: "q1", ref_id: "i1" });
  });

  it("the reigning queen: the one she replaced reigns again, active and without an end", () => {
    const q2Last = { ...q2, replacedAt: null, active: true };
    const changes = deleteQueen(fakeContext(at), state(q2Last, [q1], []), "q2");
    expect(summary(changes)).toEqual([
      "delete queen q2",
      "delete event e3",
      "delete event e4",
      "upsert queen q1",
      "delete event e2",
    ]);
    expect(changes[3]?.payload).toMatchObject({ replaced_at: null, active: true });
  });

  it("the first queen: no one reigns in her time; her records name no queen", () => {
    const alone = { ...q1, replacedAt: null, active: true };
    const record = { ...inspection, state: { ...inspection.state, queenId: "q1" } };
    const changes = deleteQueen(fakeContext(at), state(alone, [], [record]), "q1");
    expect(summary(changes)).toEqual([
      "delete queen q1",
      "delete event e1",
      "delete event e2",
      "upsert inspection i1",
      "delete event e9",
      "upsert event id-1",
    ]);
    expect(changes[3]?.payload).toMatchObject({ queen_id: "" });
  });

  it("answers not_found for a queen that does not exist", () => {
    expect(codeOf(() => deleteQueen(fakeContext(at), undefined, "x"))).toBe("not_found:");
  });
});
