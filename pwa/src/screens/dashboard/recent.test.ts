import { create } from "@bufbuild/protobuf";
import { InspectionSchema } from "@hivekeep/proto";
import { describe, expect, it } from "vitest";
import { readingsOf } from "../inspections/present.ts";
import { groupRecent } from "./recent.ts";

describe("readingsOf", () => {
  it("lists what was measured, leaving out 0 (not measured)", () => {
    const i = create(InspectionSchema, {
      weightKg: 41.5,
      tempHive: 0,
      tempOutside: -2,
      humidityHive: 60,
    });
    expect(readingsOf(i)).toEqual([
      { kind: "weight", place: "hive", value: 41.5 },
      { kind: "temperature", place: "outside", value: -2 },
      { kind: "humidity", place: "hive", value: 60 },
    ]);
    expect(readingsOf(create(InspectionSchema, {}))).toEqual([]);
  });
});

describe("groupRecent", () => {
  const m = (id: string, hiveId: string) => ({ id, hiveId, measurementOnly: true });
  const v = (id: string, hiveId: string) => ({ id, hiveId, measurementOnly: false });

  it("joins one hive's measurements that follow each other into one row", () => {
    const rows = groupRecent([m("1", "a"), m("2", "a"), v("3", "a"), m("4", "a"), m("5", "b")]);
    expect(rows).toEqual([
      { kind: "measurements", items: [m("1", "a"), m("2", "a")] },
      { kind: "one", item: v("3", "a") },
      { kind: "one", item: m("4", "a") },
      { kind: "one", item: m("5", "b") },
    ]);
  });

  it("keeps visits one by one, and a run of another hive apart", () => {
    const rows = groupRecent([v("1", "a"), v("2", "a"), m("3", "a"), m("4", "b"), m("5", "b")]);
    expect(rows.map((r) => r.kind)).toEqual(["one", "one", "one", "measurements"]);
    expect(groupRecent([])).toEqual([]);
  });
});
