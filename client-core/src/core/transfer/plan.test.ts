import { describe, expect, it } from "vitest";
import { fakeContext } from "../../testing/command-context.ts";
import { rowKey } from "../change.ts";
import { idsToLookUp, type OrganizationFacts, planImport } from "./plan.ts";
import type { RecordSet } from "./record-set.ts";

const none: OrganizationFacts = { rows: new Map() };
const facts = (...rows: [string, string, string][]): OrganizationFacts => ({
  rows: new Map(rows.map(([e, id, scopeId]) => [`${e}/${id}`, { scopeId }])),
});
const at = "2026-04-01T10:00:00.000Z";
const photo = "data:image/jpeg;base64,AAAA";
const photo2 = "data:image/jpeg;base64,ZZZZ";

const file: RecordSet = {
  apiary: [{ id: "a1", name: "Home", created_at: at }],
  hive: [
    { id: "h1", apiary_id: "a1", name: "Volk 1", type: 1, boxes: 2 },
    { id: "h2", apiary_id: "a1", name: "Gone", deleted: true },
  ],
  inspection: [
    {
      id: "i1",
      hive_id: "h2",
      apiary_id: "a1",
      date: at,
      photo_keys: [photo2, photo],
      queen_seen: true,
    },
  ],
  queen: [{ id: "q1", hive_id: "h1", year: 2025, active: true }],
  task: [
    { id: "t1", title: "Mine" },
    { id: "t2", title: "At the hive", hive_id: "h1", apiary_id: "a1" },
  ],
};

describe("planImport", () => {
  it("writes every new record once, in registry order, with its columns and the importer's stamps", () => {
    const ctx = fakeContext({ authorId: "importer" });
    const plan = planImport({ records: file }, none, ctx);
    expect(plan.problems).toEqual([]);
    expect(plan.changes.map((c) => `${c.op} ${c.entity} ${c.entityId}`)).toEqual([
      "upsert apiary a1",
      "upsert hive h1",
      "upsert hive h2",
      "delete hive h2",
      "upsert inspection i1",
      "upsert inspection i1",
      "upsert queen q1",
      "upsert task t1",
      "upsert task t2",
    ]);
    const inspection = plan.changes.filter((c) => c.entityId === "i1");
    expect(inspection.map((c) => c.payload)).toEqual([
      { hive_id: "h2", apiary_id: "a1", date: at, photo_keys: { add: [photo2] }, queen_seen: true },
      { photo_keys: { add: [photo] } },
    ]);
    expect(new Set(plan.changes.map((c) => c.authorId))).toEqual(new Set(["importer"]));
    const stamps = plan.changes.map((c) => c.hlc);
    expect([...stamps].sort()).toEqual(stamps);
    expect(new Set(stamps).size).toBe(stamps.length);
    expect(plan.counts.hive).toEqual({ created: 2, existing: 0 });
  });

  it("scopes by the registry's rule: own id, apiary_id, the queen's hive's apiary, the importer for a personal task", () => {
    const plan = planImport({ records: file }, none, fakeContext({ authorId: "u9" }));
    const scope = (id: string) => plan.changes.find((c) => c.entityId === id)?.scopeId;
    expect(scope("a1")).toBe("a1");
    expect(scope("h1")).toBe("a1");
    expect(scope("q1")).toBe("a1");
    expect(scope("t1")).toBe("user:u9");
    expect(scope("t2")).toBe("a1");
  });

  it("takes the scope of a queen's hive from the organization when the hive is not in the file", () => {
    const plan = planImport(
      { records: { queen: [{ id: "q2", hive_id: "hx", year: 2024 }] } },
      facts(["hive", "hx", "a7"]),
      fakeContext(),
    );
    expect(plan.problems).toEqual([]);
    expect(plan.changes[0]?.scopeId).toBe("a7");
  });

  it("leaves every record the organization has (live or deleted) as it is; a second import writes nothing", () => {
    const all = facts(
      ["apiary", "a1", "a1"],
      ["hive", "h1", "a1"],
      ["hive", "h2", "a1"],
      ["inspection", "i1", "a1"],
      ["queen", "q1", "a1"],
      ["task", "t1", "user:u"],
      ["task", "t2", "a1"],
    );
    const plan = planImport({ records: file }, all, fakeContext());
    expect(plan.problems).toEqual([]);
    expect(plan.changes).toEqual([]);
    expect(plan.counts.hive).toEqual({ created: 0, existing: 2 });
    const some = planImport({ records: file }, facts(["apiary", "a1", "a1"]), fakeContext());
    expect(some.changes.map((c) => c.entityId)).not.toContain("a1");
    expect(some.counts.apiary).toEqual({ created: 0, existing: 1 });
  });

  it("refuses a reference that is neither in the file nor in the organization (another tenant's id), writing nothing", () => {
    const plan = planImport(
      {
        records: {
          apiary: [{ id: "a1", name: "Home" }],
          inspection: [{ id: "i9", hive_id: "theirs", date: at }],
        },
      },
      none,
      fakeContext(),
    );
    expect(plan.changes).toEqual([]);
    expect(plan.problems).toEqual([
      {
        entity: "inspection",
        id: "i9",
        column: "hive_id",
        message:
          "inspection i9 refers to hive theirs, which is neither in the file nor in this organization",
      },
    ]);
  });

  it("resolves a reference to a deleted record of the organization", () => {
    const plan = planImport(
      { records: { inspection: [{ id: "i2", hive_id: "old", apiary_id: "a1", date: at }] } },
      facts(["hive", "old", "a1"], ["apiary", "a1", "a1"]),
      fakeContext(),
    );
    expect(plan.problems).toEqual([]);
    expect(plan.changes).toHaveLength(1);
  });

  it("checks every value with the registry's column rules and the required columns", () => {
    const plan = planImport(
      {
        records: {
          apiary: [{ id: "a1", name: "  " }],
          hive: [
            { id: "h1", apiary_id: "a1", name: "X", boxes: 99, type: 42, colour: "red" },
            { id: "h2", name: "No apiary" },
          ],
          inspection: [{ id: "i1", hive_id: "h1", date: "yesterday", queen_seen: 1 }],
        },
      },
      none,
      fakeContext(),
    );
    expect(plan.changes).toEqual([]);
    expect(plan.problems.map((p) => `${p.entity} ${p.id} ${p.column}`)).toEqual([
      "apiary a1 name",
      "hive h1 boxes",
      "hive h1 type",
      "hive h1 colour",
      "hive h2 apiary_id",
      "inspection i1 date",
      "inspection i1 queen_seen",
    ]);
    expect(plan.problems[1]?.message).toBe("hive h1: boxes must be between 0 and 20");
  });

  it("refuses an id no row can have (a reader's mistake), whatever reader made it", () => {
    const plan = planImport(
      {
        records: {
          apiary: [
            { id: "a b", name: "x" },
            { id: "x".repeat(101), name: "y" },
          ],
        },
      },
      none,
      fakeContext(),
    );
    expect(plan.changes).toEqual([]);
    expect(plan.problems).toHaveLength(2);
    expect(plan.problems[0]?.message).toBe(
      'apiary id "a b" must be 1-100 characters of [A-Za-z0-9_-]',
    );
  });

  it("refuses a record twice in the file", () => {
    const plan = planImport(
      {
        records: {
          apiary: [
            { id: "a1", name: "x" },
            { id: "a1", name: "y" },
          ],
        },
      },
      none,
      fakeContext(),
    );
    expect(plan.changes).toEqual([]);
    expect(plan.problems[0]?.message).toBe("apiary a1 is in the file twice");
  });
});

describe("idsToLookUp", () => {
  it("names the file's records and everything they refer to", () => {
    const ids = idsToLookUp(file);
    expect([...(ids.get("hive") ?? [])].sort()).toEqual(["h1", "h2"]);
    expect([...(ids.get("apiary") ?? [])]).toEqual(["a1"]);
    expect(ids.get("queen")?.has("q1")).toBe(true);
    expect(rowKey("hive", "h1")).toBe("hive/h1");
  });
});
