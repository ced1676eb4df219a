import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { InspectionSchema, Stores } from "@hivekeep/proto";
import { describe, expect, it } from "vitest";
import { entities } from "./entities.ts";
import { isReading, isReadingRow, measurementColumns, visitColumns } from "./inspection-kind.ts";

const insp = (fields: MessageInitShape<typeof InspectionSchema> = {}) =>
  create(InspectionSchema, { hiveId: "h", ...fields });

describe("isReading", () => {
  it("takes a scale's or climate tracker's record (measurements only) for a reading", () => {
    expect(isReading(insp({ weightKg: 41.5, tempHive: 34 }))).toBe(true);
    expect(isReading(insp({ humidityOutside: 80 }))).toBe(true);
    // The weather is a measurement: a weather station sends it beside the numbers.
    expect(isReading(insp({ tempOutside: 12, weather: "rain" }))).toBe(true);
  });

  it("takes anything of the stock card, a note or a photo for a visit", () => {
    for (const fields of [
      { note: "Calm" },
      { queenSeen: true },
      { eggsSeen: true },
      { coveredLarva: true },
      { frames: 9 },
      { broodFrames: 4 },
      { stores: Stores.GOOD },
      { temperament: 2 },
      { calmness: 3 },
      { queenCells: 1 },
      { varroa: "3/day" },
      { superAdded: true },
      { photoKeys: ["data:image/png;base64,AAAA"] },
    ]) {
      expect(isReading(insp({ weightKg: 40, ...fields })), JSON.stringify(fields)).toBe(false);
    }
  });

  it("takes an empty record for a visit (a form saved at the hive), blank text for nothing", () => {
    expect(isReading(insp())).toBe(false);
    expect(isReading(insp({ weightKg: 40, note: "  ", varroa: "" }))).toBe(true);
  });
});

describe("isReadingRow", () => {
  it("reads stored values (snake_case, photos as an OR-set) by the same rule", () => {
    expect(isReadingRow({ hive_id: "h", weight_kg: 40, note: null })).toBe(true);
    expect(isReadingRow({ weight_kg: 40, photo_keys: { adds: [], removed: [] } })).toBe(true);
    expect(
      isReadingRow({
        weight_kg: 40,
        photo_keys: { adds: [{ tag: "t", value: "v" }], removed: [] },
      }),
    ).toBe(false);
    expect(isReadingRow({ weight_kg: 40, queen_seen: true })).toBe(false);
    expect(isReadingRow({ stores: 0, weight_kg: 0 })).toBe(false);
  });

  it("names every column of an inspection but its identity, hive, date and frozen refs", () => {
    const named = new Set<string>([...measurementColumns, ...visitColumns]);
    const rest = Object.keys(entities.inspection.columns).filter((c) => !named.has(c));
    expect(rest.sort()).toEqual(["apiary_id", "created_at", "date", "hive_id", "queen_id"]);
  });
});
