import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { type Inspection, InspectionSchema, Stores, Temperament } from "@hivekeep/proto";
import { describe, expect, it } from "vitest";
import {
  colonyStateOf,
  draftOf,
  emptyColonyState,
  hasPreset,
  invalidMeasurements,
  isColonyCheck,
  lastColonyState,
  newDraft,
  toCreateFields,
  togglePreset,
} from "./fields.ts";

const insp = (fields: MessageInitShape<typeof InspectionSchema>) =>
  create(InspectionSchema, fields);

const draft = newDraft(emptyColonyState, undefined);

describe("lastColonyState", () => {
  it("takes the newest inspection with colony state, skipping a scale's measurement records across pages", async () => {
    const pages: Record<string, { inspections: Inspection[]; page: { nextPageToken: string } }> = {
      "": {
        inspections: [insp({ id: "s1", weightKg: 41 }), insp({ id: "s2", tempHive: 34 })],
        page: { nextPageToken: "2" },
      },
      "2": {
        inspections: [
          insp({ id: "b", frames: 9, broodFrames: 5, stores: Stores.GOOD, queenSeen: true }),
          insp({ id: "a", frames: 7, calmness: 2 }),
        ],
        page: { nextPageToken: "" },
      },
    };
    const seen: string[] = [];
    const out = await lastColonyState(async ({ pageToken }) => {
      seen.push(pageToken);
      return pages[pageToken] ?? { inspections: [] };
    }, 2);
    expect(seen).toEqual(["", "2"]);
    expect(out.from?.id).toBe("b");
    expect(out.state).toEqual({
      frames: 9,
      broodFrames: 5,
      stores: Stores.GOOD,
      temperament: Temperament.UNSPECIFIED,
      calmness: undefined,
    });
  });

  it("is empty for a hive never inspected", async () => {
    const out = await lastColonyState(async () => ({ inspections: [] }));
    expect(out).toEqual({ state: emptyColonyState });
  });
});

describe("colonyStateOf", () => {
  it("reads 0 as not set", () => {
    expect(colonyStateOf(insp({ temperament: Temperament.GENTLE, calmness: 3 }))).toEqual({
      frames: undefined,
      broodFrames: undefined,
      stores: Stores.UNSPECIFIED,
      temperament: Temperament.GENTLE,
      calmness: 3,
    });
  });
});

describe("newDraft", () => {
  it("starts from the colony state and the date, with nothing seen, measured or written", () => {
    const colony = { ...emptyColonyState, frames: 10, stores: Stores.GOOD };
    const date = new Date("2026-05-01T10:00:00Z");
    const d = newDraft(colony, date);
    expect(d.date).toBe(date);
    expect(toCreateFields(d)).toEqual({
      note: "",
      weightKg: 0,
      tempHive: 0,
      tempOutside: 0,
      humidityHive: 0,
      humidityOutside: 0,
      weather: "",
      queenSeen: false,
      eggsSeen: false,
      coveredLarva: false,
      frames: 10,
      broodFrames: 0,
      stores: Stores.GOOD,
      temperament: Temperament.UNSPECIFIED,
      calmness: 0,
      queenCells: 0,
      varroa: "",
      superAdded: false,
    });
    expect(invalidMeasurements(d)).toEqual([]);
  });
});

describe("toCreateFields", () => {
  it("sends not set as 0, empty or false, trims text, rounds counts", () => {
    const out = toCreateFields({
      ...draft,
      frames: 10,
      broodFrames: 4.4,
      weightKg: 42.5,
      weather: "  Sunny ",
      note: " ok\n",
      queenSeen: true,
    });
    expect(out).toMatchObject({
      frames: 10,
      broodFrames: 4,
      queenCells: 0,
      calmness: 0,
      weightKg: 42.5,
      tempHive: 0,
      weather: "Sunny",
      note: "ok",
      queenSeen: true,
      eggsSeen: false,
      stores: Stores.UNSPECIFIED,
    });
  });
});

describe("invalidMeasurements", () => {
  it("flags humidity above 100 % and a negative weight", () => {
    expect(
      invalidMeasurements({ ...draft, humidityHive: 101, weightKg: -1, tempOutside: -5 }),
    ).toEqual(["weightKg", "humidityHive"]);
    expect(invalidMeasurements(draft)).toEqual([]);
  });
});

describe("weather presets", () => {
  it("adds a word, adds a second after a comma, takes one out again", () => {
    expect(togglePreset("", "Sunny")).toBe("Sunny");
    expect(togglePreset("Sunny", "Windy")).toBe("Sunny, Windy");
    expect(togglePreset("Sunny, Windy", "Sunny")).toBe("Windy");
    expect(togglePreset("sunny", "Sunny")).toBe("");
  });

  it("keeps words typed by hand", () => {
    expect(togglePreset("18 °C, light breeze", "Cloudy")).toBe("18 °C, light breeze, Cloudy");
    expect(hasPreset("18 °C, light breeze, Cloudy", "Cloudy")).toBe(true);
    expect(hasPreset("Partly cloudy", "Cloudy")).toBe(false);
  });
});

describe("isColonyCheck", () => {
  it("is false for a scale's measurement record, true for a look into the colony", () => {
    expect(isColonyCheck(insp({ weightKg: 40, tempHive: 35 }))).toBe(false);
    expect(isColonyCheck(insp({ eggsSeen: true }))).toBe(true);
    expect(isColonyCheck(insp({ varroa: "3 mites" }))).toBe(true);
    expect(isColonyCheck(insp({ queenSeen: true }))).toBe(true);
    expect(isColonyCheck(insp({ stores: Stores.LOW }))).toBe(true);
    expect(isColonyCheck(insp({ broodFrames: 4 }))).toBe(true);
  });

  it("takes a note, the weather or a photo alone for no look into the colony", () => {
    expect(isColonyCheck(insp({ note: "calm", weather: "sunny", photoKeys: ["k"] }))).toBe(false);
    expect(isColonyCheck(insp({ varroa: "  " }))).toBe(false);
  });
});

describe("draftOf", () => {
  it("reads a stored inspection back into the form, so saving it unchanged writes the same", () => {
    const stored = insp({
      date: { seconds: 1_781_000_000n, nanos: 0 },
      frames: 9,
      broodFrames: 5,
      stores: Stores.GOOD,
      temperament: Temperament.GENTLE,
      queenSeen: true,
      queenCells: 2,
      weightKg: 41.5,
      tempOutside: -3,
      weather: "Sunny",
      varroa: "12 mites",
      note: "Calm",
    });
    const d = draftOf(stored);
    expect(d.date?.getTime()).toBe(1_781_000_000_000);
    expect(d.frames).toBe(9);
    expect(d.calmness).toBeUndefined();
    expect(d.humidityHive).toBeUndefined();
    const back = toCreateFields(d);
    for (const [key, value] of Object.entries(back)) {
      expect(stored[key as keyof typeof back], key).toEqual(value);
    }
  });
});
