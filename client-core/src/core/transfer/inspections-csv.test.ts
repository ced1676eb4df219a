import { readFileSync } from "node:fs";
import { EventType, HiveStatus, Stores, Temperament } from "@hivekeep/proto";
import { describe, expect, it } from "vitest";
import { type KnownPlaces, readInspectionsCsv, type SheetReadContext } from "./inspections-csv.ts";
import type { RecordRow } from "./record-set.ts";

const fixture = (name: string): string =>
  readFileSync(new URL(`../../../../test/fixtures/inspections/${name}`, import.meta.url), "utf8");

const now = new Date("2026-11-27T10:00:00.000Z");
const context = (): SheetReadContext => {
  let n = 0;
  return { now, newId: () => `new-${++n}`, authorId: "user-1" };
};

const german: KnownPlaces = {
  apiaries: [
    { id: "ap-sued", name: "Obstwiese Süd" },
    { id: "ap-wald", name: "Waldrand" },
  ],
  hives: [
    { id: "hv-1", name: "Volk 1", apiary_id: "ap-sued" },
    { id: "hv-2", name: "Volk 2", apiary_id: "ap-sued" },
    // The same name at another apiary: the apiary column tells them apart.
    { id: "hv-2-wald", name: "Volk 2", apiary_id: "ap-wald" },
  ],
};

const inspectionsOf = (rows: readonly RecordRow[] | undefined, hive: string) =>
  (rows ?? []).filter((r) => r.hive_id === hive);

describe("readInspectionsCsv: a clean German file (;, BOM, 26.11.2026, 38,5, Umlauts)", () => {
  const read = readInspectionsCsv(fixture("german.csv"), german, context());

  it("reads every line without a problem", () => {
    expect(read.problems).toEqual([]);
    expect(read.format).toBe("inspections-csv");
    expect(read.records.inspection).toHaveLength(7);
    expect(read.notCarried).toEqual({});
  });

  it("reads every column: days, times, decimal commas, ja/x, named choices, quoted text", () => {
    const [first, second] = inspectionsOf(read.records.inspection, "hv-1");
    expect(first).toEqual({
      id: expect.any(String),
      hive_id: "hv-1",
      apiary_id: "ap-sued",
      queen_id: "",
      date: "2026-04-14T10:30:00.000Z",
      weight_kg: 38.5,
      temp_hive: 34.5,
      temp_outside: 12,
      humidity_hive: 58,
      humidity_outside: 71,
      weather: "sonnig",
      queen_seen: true,
      eggs_seen: true,
      covered_larva: true,
      frames: 12,
      brood_frames: 5,
      stores: Stores.GOOD,
      temperament: Temperament.GENTLE,
      calmness: 4,
      queen_cells: 0,
      varroa: "3 Milben/Tag",
      super_added: false,
      note: "Erste Durchsicht nach dem Winter",
      created_at: now.toISOString(),
    });
    expect(second).toMatchObject({
      date: "2026-05-05T00:00:00.000Z",
      weight_kg: 41,
      queen_seen: true,
      queen_cells: 2,
      super_added: true,
      note: "Weiselzellen gebrochen; Honigraum drauf",
    });
    // "obstwiese süd " / "VOLK 2": names match trimmed and case-insensitively, within the apiary.
    const volk2 = inspectionsOf(read.records.inspection, "hv-2");
    expect(volk2.map((i) => i.date)).toEqual([
      "2026-04-14T10:55:00.000Z",
      "2026-05-05T00:00:00.000Z",
    ]);
    expect(volk2[1]).toMatchObject({ stores: Stores.GOOD, temperament: Temperament.NORMAL });
    expect(volk2[1]).not.toHaveProperty("queen_seen");
    expect(inspectionsOf(read.records.inspection, "hv-2-wald")).toEqual([]);
  });

  it("makes each new hive once, at its apiary, standing from its first inspection", () => {
    expect(read.records.apiary).toBeUndefined();
    expect(read.records.hive).toEqual([
      expect.objectContaining({
        name: "Königin Luise",
        apiary_id: "ap-wald",
        status: HiveStatus.ACTIVE,
      }),
      expect.objectContaining({ name: "Bärbel", apiary_id: "ap-wald" }),
    ]);
    const luise = read.records.hive?.[0]?.id ?? "";
    expect(read.records.placement).toContainEqual({
      id: expect.any(String),
      hive_id: luise,
      apiary_id: "ap-wald",
      started_at: "2026-05-26T09:15:00.000Z",
      ended_at: null,
    });
    const created = read.records.event?.filter((e) => e.type === EventType.CREATED);
    expect(created).toHaveLength(2);
    expect(created?.[0]).toMatchObject({
      hive_id: luise,
      apiary_id: "ap-wald",
      date: "2026-05-26T09:15:00.000Z",
      ref_entity: "hive",
      ref_id: luise,
      title: "Hive Königin Luise created",
      author_id: "user-1",
    });
    const inspections = inspectionsOf(read.records.inspection, luise);
    expect(inspections.map((i) => i.note)).toEqual([
      "Ableger vom Volk 1,\nnoch schwach",
      "gefüttert",
    ]);
    expect(inspections[1]).toMatchObject({ temp_outside: 24.5, weather: "sonnig, windig" });
    const baerbel = inspectionsOf(read.records.inspection, read.records.hive?.[1]?.id ?? "");
    expect(baerbel).toEqual([
      expect.objectContaining({
        date: "2026-11-26T00:00:00.000Z",
        weight_kg: 45.25,
        temp_outside: -2.5,
        humidity_outside: 88,
        note: "Winterkontrolle: Gewicht ok",
      }),
    ]);
  });

  it("records an INSPECTION event for each inspection, as createInspection does", () => {
    const events = read.records.event?.filter((e) => e.type === EventType.INSPECTION) ?? [];
    expect(events.map((e) => e.ref_id)).toEqual(read.records.inspection?.map((i) => i.id));
    expect(events[0]).toMatchObject({
      ref_entity: "inspection",
      hive_id: "hv-1",
      apiary_id: "ap-sued",
      date: "2026-04-14T10:30:00.000Z",
      title: "Inspection",
    });
  });

  it("gives the same ids when the same file is read again with its hives now known", () => {
    const made = read.records.hive ?? [];
    const again = readInspectionsCsv(
      fixture("german.csv"),
      {
        ...german,
        hives: [
          ...german.hives,
          ...made.map((h) => ({ id: h.id, name: String(h.name), apiary_id: String(h.apiary_id) })),
        ],
      },
      context(),
    );
    expect(again.problems).toEqual([]);
    expect(again.records.hive).toBeUndefined();
    expect(again.records.inspection?.map((i) => i.id)).toEqual(
      read.records.inspection?.map((i) => i.id),
    );
    const inspectionEvents = (r: typeof read) =>
      r.records.event?.filter((e) => e.type === EventType.INSPECTION).map((e) => e.id);
    expect(inspectionEvents(again)).toEqual(inspectionEvents(read));
  });
});

describe("readInspectionsCsv: a clean English file (,, ISO and named months, yes/no)", () => {
  const read = readInspectionsCsv(fixture("english.csv"), { apiaries: [], hives: [] }, context());

  it("makes the apiaries and hives it names and reads every line", () => {
    expect(read.problems).toEqual([]);
    expect(read.records.apiary?.map((a) => a.name)).toEqual(["Home Yard", "Orchard"]);
    expect(read.records.hive?.map((h) => [h.name, h.apiary_id])).toEqual([
      ["Hive A", read.records.apiary?.[0]?.id],
      ["Hive B", read.records.apiary?.[0]?.id],
      ["Hive C", read.records.apiary?.[1]?.id],
    ]);
    expect(read.records.inspection).toHaveLength(5);
    expect(read.notCarried).toEqual({ Inspector: 3 });
  });

  it("reads the values", () => {
    const [a1, b1, a2, c1, c2] = read.records.inspection ?? [];
    expect(a1).toMatchObject({
      date: "2026-04-12T00:00:00.000Z",
      weight_kg: 38.5,
      queen_seen: true,
      stores: Stores.GOOD,
      temperament: Temperament.GENTLE,
      varroa: "2 mites/day",
      note: "First look after winter",
    });
    expect(b1).toMatchObject({
      queen_seen: false,
      stores: Stores.LOW,
      note: "Light, needs feeding",
    });
    expect(a2).toMatchObject({
      date: "2026-05-03T00:00:00.000Z",
      weight_kg: 42.75,
      stores: Stores.MEDIUM,
      temperament: Temperament.NORMAL,
      queen_cells: 3,
      super_added: true,
    });
    expect(c1).toMatchObject({
      date: "2026-05-03T14:45:00.000Z",
      covered_larva: false,
      stores: Stores.MEDIUM,
      temperament: Temperament.NERVOUS,
      varroa: 'He said "calm"',
    });
    expect(c2).toMatchObject({ temp_outside: -1.5, stores: Stores.NONE, note: "Winter check" });
    const hiveC = read.records.hive?.[2]?.id;
    expect(read.records.placement?.find((p) => p.hive_id === hiveC)?.started_at).toBe(
      "2026-05-03T14:45:00.000Z",
    );
  });
});

describe("readInspectionsCsv: a file with bad rows", () => {
  const known: KnownPlaces = {
    apiaries: [
      { id: "ap-1", name: "Stand 1" },
      { id: "ap-2", name: "Stand 2" },
    ],
    hives: [
      { id: "hv-1", name: "Volk 1", apiary_id: "ap-1" },
      { id: "hv-2", name: "Volk 2", apiary_id: "ap-2" },
    ],
  };

  it("lists every bad cell with its line, column header and why", () => {
    const read = readInspectionsCsv(fixture("bad.csv"), known, context());
    expect(read.problems).toEqual([
      {
        line: 3,
        column: "Datum",
        message: '"31.02.2026" is not a date: there is no such day or time',
      },
      { line: 4, column: "Volk", message: "no hive: every line needs the hive it is about" },
      { line: 5, column: "Gewicht", message: '"viel" is not a number' },
      {
        line: 5,
        column: "Königin gesehen",
        message: '"vielleicht" is not yes or no (ja/nein, x, 1/0)',
      },
      {
        line: 5,
        column: "Futter",
        message: '"üppig" is not one of 1 good, 2 medium, 3 low, 4 none',
      },
      { line: 5, column: "Waben", message: '"12,5" must be an integer' },
      {
        line: 5,
        column: "Sanftmut",
        message:
          '"wütend" is not one of 1 very gentle, 2 gentle, 3 normal, 4 nervous, 5 aggressive',
      },
      { line: 6, column: "Gewicht", message: '"600" must be between 0 and 500' },
      { line: 6, column: "Waben", message: '"70" must be between 0 and 60' },
      { line: 6, column: "Datum", message: "no date: every line needs the day of its inspection" },
      {
        line: 7,
        column: "Sanftmut",
        message: '"9" is not one of 1 very gentle, 2 gentle, 3 normal, 4 nervous, 5 aggressive',
      },
      { line: 7, column: "Datum", message: '"17.04.2027" is in the future' },
      {
        line: 8,
        column: "Volk",
        message:
          'there is no hive "Volk 3": to make it, name its apiary (an apiary or Stand column)',
      },
    ]);
    // Only the clean line became an inspection; nothing is written while problems remain.
    expect(read.records.inspection?.map((i) => i.hive_id)).toEqual(["hv-1"]);
  });

  it("refuses a file without a hive or a date column, an empty one, a column named twice", () => {
    const problems = (text: string) => readInspectionsCsv(text, known, context()).problems;
    expect(problems("")).toEqual([{ line: 1, message: "the file is empty" }]);
    expect(problems("Gewicht;Notiz\n38;x\n")).toEqual([
      { line: 1, message: "no hive column (a header such as Hive, Volk or Beute)" },
      { line: 1, message: "no date column (a header such as Date or Datum)" },
    ]);
    expect(problems("Date,Hive,Notes,Bemerkung\n2026-01-01,Volk 1,a,b\n")).toEqual([
      {
        line: 1,
        column: "Bemerkung",
        message: '"Bemerkung" and "Notes" are the same column; keep one',
      },
    ]);
  });

  it("names a hive that stands at several apiaries, and a line with more cells than headers", () => {
    const twice: KnownPlaces = {
      ...known,
      hives: [...known.hives, { id: "hv-1b", name: "volk 1", apiary_id: "ap-2" }],
    };
    const read = readInspectionsCsv(
      "Date,Hive\n2026-01-01,Volk 1\n2026-01-02,Volk 2,extra\n",
      twice,
      context(),
    );
    expect(read.problems).toEqual([
      {
        line: 2,
        column: "Hive",
        message:
          'hives named "Volk 1" stand at "Stand 1", "Stand 2": name the apiary (an apiary or Stand column)',
      },
      { line: 3, message: "the line has 3 cells, the header 2" },
    ]);
  });

  it("answers junk with a missing header, and a long bad file with at most 1000 problems", () => {
    const junk = Array.from({ length: 2000 }, (_, i) => String.fromCharCode(33 + (i % 90))).join(
      "",
    );
    expect(readInspectionsCsv(`${junk}\n${junk}\n`, known, context()).problems).toEqual([
      { line: 1, message: "no hive column (a header such as Hive, Volk or Beute)" },
      { line: 1, message: "no date column (a header such as Date or Datum)" },
    ]);
    const lines = Array.from({ length: 3000 }, (_, i) => `kein Datum ${i};Volk 1`);
    const read = readInspectionsCsv(`Datum;Volk\n${lines.join("\n")}\n`, known, context());
    expect(read.problems).toHaveLength(1001);
    expect(read.problems[0]).toEqual({
      line: 2,
      column: "Datum",
      message: '"kein Datum 0" is not a date (write e.g. 26.11.2026 or 2026-11-26)',
    });
    expect(read.problems[1000]?.message).toBe(
      "2000 more problems not listed: fix these and read the file again",
    );
    expect(read.records.inspection).toEqual([]);
  });

  it("names an apiary or a hive the organization has twice", () => {
    const doubled: KnownPlaces = {
      apiaries: [...known.apiaries, { id: "ap-3", name: " stand 2" }],
      hives: [...known.hives, { id: "hv-1b", name: "VOLK 1", apiary_id: "ap-1" }],
    };
    const read = readInspectionsCsv(
      "Stand;Volk;Datum\nStand 2;Volk 2;1.1.2026\nStand 1;Volk 1;1.1.2026\n",
      doubled,
      context(),
    );
    expect(read.problems).toEqual([
      { line: 2, column: "Stand", message: '2 apiaries are named "Stand 2"' },
      { line: 3, column: "Volk", message: '2 hives at "Stand 1" are named "Volk 1"' },
    ]);
  });

  it("quotes at most 40 characters of a cell, and refuses a name no hive can have", () => {
    const long = "V".repeat(10_001);
    const read = readInspectionsCsv(
      `Date,Hive,Weight\n2026-01-01,${long},1\n2026-01-01,Volk 1,${"9".repeat(50)}\n`,
      known,
      context(),
    );
    expect(read.problems.map((p) => [p.line, p.column, p.message])).toEqual([
      [2, "Hive", `"${"V".repeat(40)}…" must be at most 10000 characters (has 10001)`],
      [3, "Weight", `"${"9".repeat(40)}…" must be between 0 and 500`],
    ]);
  });

  it("reports a line that cannot be parsed (an unclosed quote) at its line", () => {
    const read = readInspectionsCsv('Date,Hive,Note\n2026-01-01,Volk 1,"open\n', known, context());
    expect(read.problems).toEqual([
      { line: 2, message: "the line cannot be read: Quoted field unterminated" },
    ]);
  });
});

describe("readInspectionsCsv: details", () => {
  const one: KnownPlaces = { apiaries: [{ id: "ap-1", name: "Stand" }], hives: [] };

  it("gives a known hive's inspection the apiary and queen of its date, when they are given", () => {
    const placed: KnownPlaces = {
      apiaries: [
        { id: "ap-1", name: "Stand" },
        { id: "ap-2", name: "Heide" },
      ],
      hives: [{ id: "hv-1", name: "Volk 1", apiary_id: "ap-2" }],
      placements: [
        {
          id: "pl-1",
          values: {
            hive_id: "hv-1",
            apiary_id: "ap-1",
            started_at: "2026-03-01T00:00:00.000Z",
            ended_at: "2026-07-01T00:00:00.000Z",
          },
        },
        {
          id: "pl-2",
          values: {
            hive_id: "hv-1",
            apiary_id: "ap-2",
            started_at: "2026-07-01T00:00:00.000Z",
            ended_at: null,
          },
        },
      ],
      queens: [
        {
          id: "q-old",
          values: {
            hive_id: "hv-1",
            introduced_at: "2025-05-01T00:00:00.000Z",
            replaced_at: "2026-06-01T00:00:00.000Z",
          },
        },
        {
          id: "q-new",
          values: { hive_id: "hv-1", introduced_at: "2026-06-01T00:00:00.000Z", replaced_at: null },
        },
      ],
    };
    const read = readInspectionsCsv(
      "Datum;Volk\n15.5.2026;Volk 1\n15.6.2026;Volk 1\n15.7.2026;Volk 1\n",
      placed,
      context(),
    );
    expect(read.records.inspection?.map((i) => [i.apiary_id, i.queen_id])).toEqual([
      ["ap-1", "q-old"],
      ["ap-1", "q-new"],
      ["ap-2", "q-new"],
    ]);
    const events = read.records.event ?? [];
    expect(events.map((e) => [e.apiary_id, e.queen_id])).toEqual([
      ["ap-1", "q-old"],
      ["ap-1", "q-new"],
      ["ap-2", "q-new"],
    ]);
  });

  it("puts new hives of a file without apiaries at the organization's only apiary", () => {
    const read = readInspectionsCsv("Datum;Beute\n1.3.26;B 7\n", one, context());
    expect(read.problems).toEqual([]);
    expect(read.records.hive?.[0]).toMatchObject({ name: "B 7", apiary_id: "ap-1" });
    expect(read.records.inspection?.[0]?.date).toBe("2026-03-01T00:00:00.000Z");
  });

  it("makes one apiary when the organization has none and the file names none", () => {
    const ctx = { ...context(), newApiaryName: "Importiert" };
    const read = readInspectionsCsv(
      "Date,Hive\n2026-03-01,A\n2026-03-02,B\n",
      { apiaries: [], hives: [] },
      ctx,
    );
    expect(read.records.apiary?.map((a) => a.name)).toEqual(["Importiert"]);
    expect(new Set(read.records.hive?.map((h) => h.apiary_id))).toEqual(
      new Set([read.records.apiary?.[0]?.id]),
    );
  });

  it("honours Excel's sep= line and reads month-first slashed days when a day says so", () => {
    const read = readInspectionsCsv(
      "sep=;\nDate;Hive\n11/26/2026;A\n03/04/2026;A\n",
      one,
      context(),
    );
    expect(read.problems).toEqual([]);
    expect(read.records.inspection?.map((i) => i.date)).toEqual([
      "2026-11-26T00:00:00.000Z",
      "2026-03-04T00:00:00.000Z",
    ]);
    const dayFirst = readInspectionsCsv("Date;Hive\n03/04/2026;A\n", one, context());
    expect(dayFirst.records.inspection?.[0]?.date).toBe("2026-04-03T00:00:00.000Z");
  });

  it("keeps one inspection of a line written twice, and says so", () => {
    const read = readInspectionsCsv(
      "Date,Hive,Weight\n2026-03-01,A,30\n2026-03-01,A,30.0\n2026-03-01,A,31\n",
      one,
      context(),
    );
    expect(read.records.inspection).toHaveLength(2);
    expect(read.notCarried).toEqual({ "(same line twice)": 1 });
  });

  it("matches headers whatever their case, spacing, punctuation, Umlaut spelling or unit", () => {
    const read = readInspectionsCsv(
      "DATUM,volk,KOENIGIN_GESEHEN?,Gewicht [kg],Temp °C,Brut-Waben,Wetter:\n2026-03-01,A,x,30,12,4,mild\n",
      one,
      context(),
    );
    expect(read.problems).toEqual([]);
    expect(read.records.inspection?.[0]).toMatchObject({
      queen_seen: true,
      weight_kg: 30,
      temp_outside: 12,
      brood_frames: 4,
      weather: "mild",
    });
  });
});

describe("readInspectionsCsv: days and times in the importer's time zone", () => {
  it("reads a day as its start and a time as the wall clock in that zone", () => {
    const file =
      "Datum;Uhrzeit;Stand;Volk\n26.11.2026;;Obstwiese Süd;Volk 1\n14.04.2026;10:30;Obstwiese Süd;Volk 2\n";
    const read = readInspectionsCsv(file, german, { ...context(), timeZone: "Europe/Berlin" });
    expect(read.problems).toEqual([]);
    expect(inspectionsOf(read.records.inspection, "hv-1")[0]?.date).toBe(
      "2026-11-25T23:00:00.000Z",
    );
    expect(inspectionsOf(read.records.inspection, "hv-2")[0]?.date).toBe(
      "2026-04-14T08:30:00.000Z",
    );
  });
});
