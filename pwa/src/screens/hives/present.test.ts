import { create } from "@bufbuild/protobuf";
import { EventSchema, EventType, HiveStatus, InspectionSchema, Stores } from "@hivekeep/proto";
import { describe, expect, it } from "vitest";
import { makeFormat, toTimestamp } from "../../format.ts";
import { type Language, loadLanguage, translate } from "../../i18n.ts";
import { commonMessages } from "../../ui/messages.ts";
import type { HiveWords } from "./messages.ts";
import { hiveMessages } from "./messages.ts";
import {
  apiaryIdsOf,
  inspectionSummary,
  onDate,
  readingsLine,
  statusChangeText,
  stayText,
  type Words,
} from "./present.ts";

const wordsIn = (lng: Language, locale: string): Words => ({
  t: ((key, values) => translate(hiveMessages, lng, key, values)) as HiveWords,
  tc: (key, values) => translate(commonMessages, lng, key, values),
  fmt: makeFormat(locale),
});
const en = wordsIn("en", "en-GB");
// German and French load on demand, as in the app.
await loadLanguage("de");
await loadLanguage("fr");
const de = wordsIn("de", "de-DE");
const fr = wordsIn("fr", "fr-FR");
const at = (iso: string) => toTimestamp(new Date(iso));

describe("inspectionSummary", () => {
  it("says what a look into the colony found, and the weight", () => {
    const i = create(InspectionSchema, {
      queenSeen: true,
      eggsSeen: true,
      broodFrames: 8,
      stores: Stores.GOOD,
      weightKg: 42.5,
    });
    expect(inspectionSummary(i, en)).toBe(
      "Queen seen · Eggs · Brood frames 8 · Stores: Good · 42.5\u00a0kg",
    );
    expect(inspectionSummary(i, de)).toMatch(/ · 42,5\u00a0kg$/);
    // French sets a no-break space before the colon.
    expect(inspectionSummary(i, fr)).toContain(" · Réserves\u00a0: Bonnes · ");
  });

  it("calls a scale's visit readings only, with its weight, and leaves out what was not seen", () => {
    expect(inspectionSummary(create(InspectionSchema, { weightKg: 31, tempHive: 34 }), en)).toBe(
      "Readings only · 31\u00a0kg",
    );
    expect(inspectionSummary(create(InspectionSchema, { note: "Calm.", eggsSeen: true }), en)).toBe(
      "Eggs",
    );
  });
});

describe("readingsLine", () => {
  const i = create(InspectionSchema, {
    weightKg: 42.5,
    tempHive: 34.5,
    humidityOutside: 55,
    weather: "Sunny",
  });

  it("names each reading with its value and unit, then the weather", () => {
    expect(readingsLine(i, en)).toBe(
      "Weight 42.5\u00a0kg · In the hive 34.5°C · Humidity outside 55\u00a0% · Weather: Sunny",
    );
  });

  it("leaves the weight out where the colony check's facts show it", () => {
    expect(readingsLine(i, en, { withWeight: false })).toBe(
      "In the hive 34.5°C · Humidity outside 55\u00a0% · Weather: Sunny",
    );
  });

  it("is empty for a visit with no readings and no weather", () => {
    expect(readingsLine(create(InspectionSchema, { queenSeen: true, weather: " " }), en)).toBe("");
  });
});

describe("onDate", () => {
  const now = new Date("2026-11-23T12:00:00Z");

  it("gives the date and how long ago it was, from the now it is given", () => {
    expect(onDate(new Date("2026-11-19T12:00:00Z"), now, en)).toBe("19 Nov 2026 (4 days ago)");
    expect(onDate(new Date("2026-11-22T12:00:00Z"), now, en)).toBe("22 Nov 2026 (yesterday)");
    expect(onDate(new Date("2026-11-19T12:00:00Z"), now, de)).toBe("19.11.2026 (vor 4 Tagen)");
  });
});

describe("stayText", () => {
  const from = new Date("2026-05-03T12:00:00Z");
  const until = new Date("2026-06-09T12:00:00Z");

  it("says since when, until when, or both", () => {
    expect(stayText({ apiaryId: "a", from, until: undefined }, en)).toBe("Since 3 May 2026");
    expect(stayText({ apiaryId: "a", from: undefined, until }, en)).toBe("Until 9 Jun 2026");
    expect(stayText({ apiaryId: "a", from, until }, en)).toBe("3 May 2026 – 9 Jun 2026");
  });
});

describe("statusChangeText", () => {
  it("names both statuses of a change, and nothing for a detail without one", () => {
    const detailJson = JSON.stringify({ from: HiveStatus.ACTIVE, to: HiveStatus.LOST });
    expect(statusChangeText({ detailJson }, en.tc)).toBe("Active → Lost");
    expect(statusChangeText({ detailJson: "" }, en.tc)).toBeNull();
  });
});

describe("apiaryIdsOf", () => {
  it("names where the hive stands and every apiary its creation and moves mention, once", () => {
    const events = [
      create(EventSchema, { type: EventType.CREATED, apiaryId: "a1", date: at("2026-01-01") }),
      create(EventSchema, {
        type: EventType.MOVED,
        apiaryId: "a2",
        detailJson: JSON.stringify({ from: "a1", to: "a2" }),
      }),
      // A move whose detail does not name its target: the event's own apiary is where it went.
      create(EventSchema, { type: EventType.MOVED, apiaryId: "a3", detailJson: "{}" }),
      // Other events add no apiary of their own.
      create(EventSchema, { type: EventType.INSPECTION, apiaryId: "a9" }),
    ];
    expect(apiaryIdsOf({ apiaryId: "a3" }, events).sort()).toEqual(["a1", "a2", "a3"]);
  });
});
