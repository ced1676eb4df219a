import { EventType, HiveStatus, HiveType } from "@hivekeep/proto";
import { describe, expect, it } from "vitest";
import { byEntity, errorOf, fakeContext } from "../../testing/command-context.ts";
import { DomainError } from "../domain-error.ts";
import {
  createHive,
  deleteHive,
  type HiveFields,
  type HiveState,
  relocateHive,
  updateHive,
} from "./hive.ts";

const now = new Date("2026-05-01T10:00:00.000Z");

/** Every test here runs on 1 May 2026 as user "u1". */
const at = { now, authorId: "u1" };

const fields: HiveFields = {
  name: "Nord",
  type: HiveType.DADANT,
  boxes: 2,
  colonyOrigin: "swarm",
  note: "",
  qrCode: "",
};

const hive: HiveState = {
  id: "h1",
  name: "Nord",
  apiaryId: "a1",
  status: HiveStatus.ACTIVE,
  queenId: "q1",
  openPlacements: [{ id: "p1", apiaryId: "a1", startedAt: "2026-04-01T00:00:00.000Z" }],
};

const fails = (fn: () => unknown, code: DomainError["code"], message?: string | RegExp) => {
  const e = errorOf(fn);
  expect(e).toBeInstanceOf(DomainError);
  expect(e.code).toBe(code);
  if (message !== undefined) expect(e.message).toMatch(message);
};

describe("createHive", () => {
  const input = { ...fields, apiaryId: "a1", photo: "", date: now.toISOString() };

  it("creates an ACTIVE hive, an open placement and a CREATED event, all scoped to the apiary", () => {
    const { id, changes } = createHive(fakeContext(at), { id: "a1" }, input);
    expect(changes.map((c) => c.entity)).toEqual(["hive", "placement", "event"]);
    expect(changes.every((c) => c.scopeId === "a1")).toBe(true);
    expect(changes[0]?.payload).toMatchObject({ status: HiveStatus.ACTIVE, apiary_id: "a1" });
    expect(changes[1]?.payload).toEqual({
      hive_id: id,
      apiary_id: "a1",
      started_at: now.toISOString(),
      ended_at: null,
    });
    expect(changes[2]?.payload).toMatchObject({ type: EventType.CREATED, hive_id: id });
  });

  it("checks apiaryId, name, enum numbers and the photo before the apiary", () => {
    fails(() => createHive(fakeContext(at), undefined, { ...input, apiaryId: " " }), "invalid");
    fails(() => createHive(fakeContext(at), undefined, { ...input, name: "" }), "invalid");
    fails(
      () => createHive(fakeContext(at), { id: "a1" }, { ...input, type: 42 as HiveType }),
      "invalid",
    );
    fails(
      () => createHive(fakeContext(at), { id: "a1" }, { ...input, photo: "http://x" }),
      "invalid",
      /photo must start with "data:image\/"/,
    );
    fails(() => createHive(fakeContext(at), undefined, input), "not_found");
  });

  it("opens the placement and records CREATED at the set-up date; created_at stays now", () => {
    const march = "2026-03-15T09:00:00Z";
    const { changes } = createHive(fakeContext(at), { id: "a1" }, { ...input, date: march });
    expect(changes[0]?.payload).toMatchObject({ created_at: now.toISOString() });
    expect(changes[1]?.payload).toMatchObject({ started_at: "2026-03-15T09:00:00.000Z" });
    expect(changes[2]?.payload).toMatchObject({
      type: EventType.CREATED,
      date: "2026-03-15T09:00:00.000Z",
    });
  });

  it("refuses a set-up date in the future (a day of tolerance) or unreadable, naming date", () => {
    const ctx = fakeContext(at);
    const dayAhead = new Date(now.getTime() + 24 * 3600_000);
    expect(
      byEntity(
        createHive(ctx, { id: "a1" }, { ...input, date: dayAhead.toISOString() }).changes,
        "event",
      )[0]?.payload.date,
    ).toBe(dayAhead.toISOString());
    const tooFar = new Date(dayAhead.getTime() + 1).toISOString();
    const e = errorOf(() => createHive(ctx, { id: "a1" }, { ...input, date: tooFar }));
    expect([e.code, e.field, e.message]).toEqual([
      "invalid",
      "date",
      "date cannot be in the future",
    ]);
    // Before the apiary is looked up, as every invalid input.
    expect(errorOf(() => createHive(ctx, undefined, { ...input, date: tooFar })).code).toBe(
      "invalid",
    );
    expect(errorOf(() => createHive(ctx, { id: "a1" }, { ...input, date: "May" })).field).toBe(
      "date",
    );
  });
});

describe("updateHive", () => {
  const input = { ...fields, id: "h1", status: HiveStatus.ACTIVE, name: " Süd " };

  it("overwrites the editable fields and never apiary_id or photo", () => {
    const changes = updateHive(fakeContext(at), hive, input);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ entity: "hive", entityId: "h1", scopeId: "a1" });
    expect(changes[0]?.payload).toEqual({
      name: "Süd",
      type: HiveType.DADANT,
      status: HiveStatus.ACTIVE,
      boxes: 2,
      colony_origin: "swarm",
      note: "",
      qr_code: "",
      updated_at: now.toISOString(),
    });
  });

  it("keeps the current status when the message leaves it unspecified", () => {
    const changes = updateHive(fakeContext(at), hive, { ...input, status: HiveStatus.UNSPECIFIED });
    expect(changes[0]?.payload.status).toBe(HiveStatus.ACTIVE);
    expect(byEntity(changes, "event")).toEqual([]);
  });

  it("records STATUS for a status change and DISSOLVED for dissolving", () => {
    const queenless = updateHive(fakeContext(at), hive, {
      ...input,
      status: HiveStatus.QUEENLESS,
    });
    const [status] = byEntity(queenless, "event");
    expect(status?.payload).toMatchObject({
      type: EventType.STATUS,
      apiary_id: "a1",
      hive_id: "h1",
      queen_id: "q1",
      title: "Hive Süd: active → queenless",
      detail_json: JSON.stringify({ from: HiveStatus.ACTIVE, to: HiveStatus.QUEENLESS }),
    });
    const dissolved = updateHive(fakeContext(at), hive, { ...input, status: HiveStatus.DISSOLVED });
    expect(byEntity(dissolved, "event")[0]?.payload).toMatchObject({
      type: EventType.DISSOLVED,
      title: "Hive Süd dissolved",
    });
  });

  it("needs the hive message, a known hive, a name and known enum numbers", () => {
    fails(() => updateHive(fakeContext(at), hive, undefined), "invalid", "hive is required");
    fails(() => updateHive(fakeContext(at), undefined, input), "not_found");
    fails(() => updateHive(fakeContext(at), hive, { ...input, name: "  " }), "invalid");
    fails(
      () => updateHive(fakeContext(at), hive, { ...input, status: 7 as HiveStatus }),
      "invalid",
    );
    fails(() => updateHive(fakeContext(at), hive, { ...input, boxes: -1 }), "invalid");
  });
});

describe("relocateHive", () => {
  const target = { id: "a2", name: "Süd" };
  const input = { id: "h1", targetApiaryId: "a2", date: "2026-04-20T08:00:00Z" };

  it("moves the hive and its scope, closes and opens placements, records MOVED", () => {
    const changes = relocateHive(fakeContext(at), hive, target, input);
    const [moved] = byEntity(changes, "hive");
    expect(moved).toMatchObject({ scopeId: "a2", payload: { apiary_id: "a2" } });
    const placements = byEntity(changes, "placement");
    expect(placements[0]).toMatchObject({
      entityId: "p1",
      scopeId: "a1",
      payload: { ended_at: "2026-04-20T08:00:00.000Z" },
    });
    expect(placements[1]).toMatchObject({
      scopeId: "a2",
      payload: {
        hive_id: "h1",
        apiary_id: "a2",
        started_at: "2026-04-20T08:00:00.000Z",
        ended_at: null,
      },
    });
    const [event] = byEntity(changes, "event");
    expect(event).toMatchObject({ scopeId: "a2" });
    expect(event?.payload).toMatchObject({
      type: EventType.MOVED,
      date: "2026-04-20T08:00:00.000Z",
      apiary_id: "a2",
      hive_id: "h1",
      queen_id: "q1",
      detail_json: JSON.stringify({ from: "a1", to: "a2" }),
    });
  });

  it("refuses a missing target, unknown ids, the same apiary and a date before arrival", () => {
    const ctx = fakeContext(at);
    fails(() => relocateHive(ctx, hive, target, { ...input, targetApiaryId: "" }), "invalid");
    fails(() => relocateHive(ctx, undefined, target, input), "not_found", /hive/);
    fails(() => relocateHive(ctx, hive, undefined, input), "not_found", /apiary/);
    fails(
      () => relocateHive(ctx, hive, { id: "a1", name: "Nord" }, { ...input, targetApiaryId: "a1" }),
      "invalid",
      "hive already stands at that apiary",
    );
    fails(
      () => relocateHive(ctx, hive, target, { ...input, date: "2026-03-01T00:00:00Z" }),
      "invalid",
      /date must not be before/,
    );
  });

  it("refuses a move date in the future (a day of tolerance), naming date", () => {
    const ctx = fakeContext(at);
    const dayAhead = new Date(now.getTime() + 24 * 3600_000).toISOString();
    expect(
      byEntity(relocateHive(ctx, hive, target, { ...input, date: dayAhead }), "event")[0]?.payload
        .date,
    ).toBe(dayAhead);
    const tooFar = new Date(now.getTime() + 24 * 3600_000 + 1).toISOString();
    const e = errorOf(() => relocateHive(ctx, hive, target, { ...input, date: tooFar }));
    expect([e.code, e.field, e.message]).toEqual([
      "invalid",
      "date",
      "date cannot be in the future",
    ]);
  });

  it("moves the hive's queens to the target's scope, writing only updated_at", () => {
    const changes = relocateHive(
      fakeContext(at),
      { ...hive, queenIds: ["q0", "q1"] },
      target,
      input,
    );
    expect(byEntity(changes, "queen")).toMatchObject([
      { entityId: "q0", scopeId: "a2", payload: { updated_at: now.toISOString() } },
      { entityId: "q1", scopeId: "a2", payload: { updated_at: now.toISOString() } },
    ]);
    expect(byEntity(changes, "queen").map((c) => Object.keys(c.payload))).toEqual([
      ["updated_at"],
      ["updated_at"],
    ]);
  });

  it("moves a date within the 60 s clock skew before the arrival to the arrival", () => {
    const ctx = fakeContext(at);
    const arrival = "2026-04-01T00:00:00.000Z";
    for (const date of ["2026-03-31T23:59:59.995Z", "2026-03-31T23:59:00.000Z"]) {
      const changes = relocateHive(ctx, hive, target, { ...input, date });
      expect(byEntity(changes, "placement").map((c) => c.payload)).toMatchObject([
        { ended_at: arrival },
        { started_at: arrival },
      ]);
      expect(byEntity(changes, "event")[0]?.payload.date).toBe(arrival);
    }
    fails(
      () => relocateHive(ctx, hive, target, { ...input, date: "2026-03-31T23:58:59.999Z" }),
      "invalid",
      /date must not be before/,
    );
  });
});

describe("deleteHive", () => {
  it("tombstones the hive and closes its open placements", () => {
    const changes = deleteHive(fakeContext(at), hive, "h1");
    expect(changes[0]).toMatchObject({ entity: "hive", op: "delete", scopeId: "a1" });
    expect(changes[1]).toMatchObject({
      entity: "placement",
      entityId: "p1",
      payload: { ended_at: now.toISOString() },
    });
    expect(changes).toHaveLength(2);
  });

  it("answers not_found for an unknown hive", () => {
    fails(() => deleteHive(fakeContext(at), undefined, "nope"), "not_found");
  });
});
