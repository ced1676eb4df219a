import { describe, expect, it } from "vitest";
import { fakeContext } from "../../testing/command-context.ts";
import { maxTextLength } from "../column-value.ts";
import { isStorableText } from "../utf8.ts";
import {
  EventType,
  eventTitle,
  type HiveRecordState,
  refrozen,
  removeRecordOfHive,
  rewriteRecordOfHive,
} from "./event.ts";

describe("eventTitle", () => {
  it("keeps a title within the text limit and cuts a longer one, ending in …", () => {
    const exact = "x".repeat(maxTextLength);
    expect(eventTitle(exact)).toBe(exact);
    const cut = eventTitle(`Hive ${exact} moved to ${exact}`);
    expect(cut).toHaveLength(maxTextLength);
    expect(cut.endsWith("x…")).toBe(true);
  });

  it("never cuts inside a surrogate pair", () => {
    const bees = "🐝".repeat(maxTextLength);
    const cut = eventTitle(bees);
    expect(isStorableText(cut)).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(maxTextLength);
  });
});

describe("a record's event follows its record", () => {
  const event = {
    id: "ev-1",
    scopeId: "apiary-1",
    type: EventType.INSPECTION,
    date: "2026-05-19T08:00:00.000Z",
    apiaryId: "apiary-1",
    queenId: "queen-1",
    title: "Inspection",
    amountKg: 0,
  };
  const current: HiveRecordState = {
    id: "rec-1",
    scopeId: "apiary-1",
    hiveId: "hive-1",
    date: "2026-05-19T08:00:00.000Z",
    apiaryId: "apiary-1",
    queenId: "queen-1",
    events: [event],
  };
  const same = { id: "hive-1", apiaryId: "apiary-1", queenId: "queen-1" };
  const moved = { id: "hive-1", apiaryId: "apiary-2", queenId: "queen-0" };

  it("refrozen: the hive as of the new date when the date changes, else what the record froze", () => {
    expect(refrozen(current, "2026-05-19T08:00:00Z", moved)).toEqual(same);
    expect(refrozen(current, "2026-04-01T08:00:00.000Z", moved)).toEqual(moved);
    // The hive is gone: the record keeps what it froze.
    expect(refrozen(current, "2026-04-01T08:00:00.000Z", undefined)).toEqual(same);
  });

  it("keeps an event that is still true: only the record is written", () => {
    const changes = rewriteRecordOfHive(
      fakeContext(),
      "inspection",
      current,
      same,
      { note: "x" },
      {
        type: EventType.INSPECTION,
        date: "2026-05-19T08:00:00Z",
        title: "Inspection",
      },
    );
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      entity: "inspection",
      entityId: "rec-1",
      scopeId: "apiary-1",
      payload: { note: "x", apiary_id: "apiary-1", queen_id: "queen-1" },
    });
  });

  it("tombstones a stale event and records a true one; the record's scope follows the apiary", () => {
    const changes = rewriteRecordOfHive(
      fakeContext(),
      "treatment",
      current,
      moved,
      {},
      {
        type: EventType.TREATMENT,
        date: "2026-04-01T08:00:00.000Z",
        title: "Thymol",
      },
    );
    expect(changes.map((c) => [c.entity, c.op, c.scopeId])).toEqual([
      ["treatment", "upsert", "apiary-2"],
      ["event", "delete", "apiary-1"],
      ["event", "upsert", "apiary-2"],
    ]);
    expect(changes[1]?.entityId).toBe("ev-1");
    expect(changes[2]?.payload).toMatchObject({
      type: EventType.TREATMENT,
      date: "2026-04-01T08:00:00.000Z",
      apiary_id: "apiary-2",
      hive_id: "hive-1",
      queen_id: "queen-0",
      ref_entity: "treatment",
      ref_id: "rec-1",
      title: "Thymol",
    });
  });

  it("a changed title alone renews the event; a record without an event gets one", () => {
    const retitled = rewriteRecordOfHive(
      fakeContext(),
      "treatment",
      current,
      same,
      {},
      {
        type: EventType.INSPECTION,
        date: current.date,
        title: "Other",
      },
    );
    expect(retitled.map((c) => [c.entity, c.op])).toEqual([
      ["treatment", "upsert"],
      ["event", "delete"],
      ["event", "upsert"],
    ]);
    const none = rewriteRecordOfHive(
      fakeContext(),
      "inspection",
      { ...current, events: [] },
      same,
      {},
      {
        type: EventType.INSPECTION,
        date: current.date,
        title: "Inspection",
      },
    );
    expect(none.map((c) => [c.entity, c.op])).toEqual([
      ["inspection", "upsert"],
      ["event", "upsert"],
    ]);
  });

  it("removeRecordOfHive tombstones the record and each of its events", () => {
    const changes = removeRecordOfHive(fakeContext(), "inspection", {
      ...current,
      events: [event, { ...event, id: "ev-2", scopeId: "apiary-2" }],
    });
    expect(changes.map((c) => [c.entity, c.entityId, c.op, c.scopeId])).toEqual([
      ["inspection", "rec-1", "delete", "apiary-1"],
      ["event", "ev-1", "delete", "apiary-1"],
      ["event", "ev-2", "delete", "apiary-2"],
    ]);
  });
});
