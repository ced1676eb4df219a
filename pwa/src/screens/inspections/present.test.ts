import { create } from "@bufbuild/protobuf";
import { InspectionSchema } from "@hivekeep/proto";
import { describe, expect, it } from "vitest";
import { makeFormat, toTimestamp } from "../../format.ts";
import { enteredLater, readingValue } from "./present.ts";

describe("readingValue", () => {
  const en = makeFormat("en-GB");
  const de = makeFormat("de-DE");

  it("gives each kind its unit, in the language's numbers", () => {
    expect(readingValue(en, { kind: "weight", value: 43.25 })).toBe("43.3\u00a0kg");
    expect(readingValue(de, { kind: "weight", value: 43.25 })).toBe("43,3\u00a0kg");
    expect(readingValue(en, { kind: "temperature", value: 34.5 })).toBe("34.5°C");
    expect(readingValue(de, { kind: "humidity", value: 61.4 })).toBe("61\u00a0%");
  });

  it("is what the hive page, the overview and the inspection page show", () => {
    const i = create(InspectionSchema, { weightKg: 40, humidityOutside: 70 });
    expect(i.weightKg).toBe(40);
    expect(readingValue(en, { kind: "humidity", value: i.humidityOutside })).toBe("70\u00a0%");
  });
});

describe("enteredLater", () => {
  const visit = new Date("2026-11-20T09:00:00Z");
  const written = (ms: number) =>
    enteredLater(
      create(InspectionSchema, {
        date: toTimestamp(visit),
        createdAt: toTimestamp(new Date(visit.getTime() + ms)),
      }),
    );

  it("gives the time of writing down when it came more than an hour after the visit", () => {
    expect(written(3_600_001)).toEqual(new Date(visit.getTime() + 3_600_001));
    expect(written(3_600_000)).toBeUndefined();
    expect(written(-5_000)).toBeUndefined();
  });

  it("says nothing when a time is not on record", () => {
    expect(enteredLater(create(InspectionSchema, { date: toTimestamp(visit) }))).toBeUndefined();
  });
});
