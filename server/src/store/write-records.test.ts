import type { Change, Hlc } from "@hivekeep/client-core/core";
import { describe, expect, it } from "vitest";
import { changeHead } from "./feed.ts";
import { packClock } from "./stored-clock.ts";
import { feedRecordsJson, rowRecordsJson } from "./write-records.ts";

const a = "000001767225600000:00001:dev-a" as Hlc;
const b = "000001767225700000:00002:dev-b" as Hlc;

describe("write records", () => {
  it("writes a row's whole state, its clock grouped by stamp", () => {
    const json = rowRecordsJson([
      {
        entity: "apiary",
        id: "a1",
        scopeId: "a1",
        state: { values: { name: 'S "1"', lat: 1.5 }, clock: { name: a, lat: b }, deleted: false },
        complete: true,
        how: "insert",
      },
      {
        entity: "apiary",
        id: "a2",
        scopeId: "a2",
        state: { values: {}, clock: { _deleted: b }, deleted: true },
        complete: false,
        how: "upsert",
      },
    ]);
    expect(JSON.parse(json)).toEqual([
      {
        name: 'S "1"',
        lat: 1.5,
        id: "a1",
        scope_id: "a1",
        deleted: false,
        complete: true,
        clock: { [a]: ["name"], [b]: ["lat"] },
      },
      { id: "a2", scope_id: "a2", deleted: true, complete: false, clock: { [b]: ["_deleted"] } },
    ]);
    expect(rowRecordsJson([])).toBe("[]");
  });

  it("writes a feed entry's columns and head, and the row it carries", () => {
    const change: Change = {
      entity: "apiary",
      entityId: "a1",
      scopeId: "a1",
      op: "upsert",
      payload: { name: "N", lat: 2 },
      hlc: a,
      authorId: "u1",
    };
    const head = { entity: "apiary", entity_id: "a1", scope_id: "a1", hlc: a, author_id: "u1" };
    const json = feedRecordsJson([
      { seq: 7, change, withState: false, carries: { clock: { name: a, lat: a }, complete: true } },
      {
        seq: 8,
        change: { ...change, op: "delete", payload: {}, hlc: b },
        withState: true,
        heldUntil: 0,
      },
    ]);
    expect(JSON.parse(json)).toEqual([
      {
        seq: 7,
        ...head,
        op: 1,
        payload: { name: "N", lat: 2 },
        change_head: changeHead({ ...head, op: 1 }),
        with_state: false,
        row_complete: true,
        row_clock: packClock({ name: a, lat: a }),
      },
      {
        seq: 8,
        ...head,
        hlc: b,
        op: 2,
        payload: {},
        change_head: changeHead({ ...head, hlc: b, op: 2 }),
        with_state: true,
        held_until: "1970-01-01T00:00:00.000Z",
      },
    ]);
  });
});
