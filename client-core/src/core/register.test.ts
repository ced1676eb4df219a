import { describe, expect, it } from "vitest";
import { fakeContext } from "../testing/command-context.ts";
import type { Change } from "./change.ts";
import type { HiveRecordState } from "./commands/event.ts";
import { createTreatment, deleteTreatment, updateTreatment } from "./commands/treatment.ts";
import type { Values } from "./merge.ts";
import { type RegisterRow, registerEntries } from "./register.ts";

/** A tiny replica: rows with tombstones, as the stores keep them. */
function replica() {
  const rows = new Map<string, { entity: string; id: string; values: Values; deleted: boolean }>();
  const apply = (changes: readonly Change[]) => {
    for (const c of changes) {
      const key = `${c.entity}/${c.entityId}`;
      const row = rows.get(key) ?? { entity: c.entity, id: c.entityId, values: {}, deleted: false };
      if (c.op === "delete") row.deleted = true;
      else row.values = { ...row.values, ...c.payload };
      rows.set(key, row);
    }
  };
  const of = (entity: string): RegisterRow[] =>
    [...rows.values()].filter((r) => r.entity === entity);
  const state = (id: string): HiveRecordState => {
    const t = rows.get(`treatment/${id}`);
    const v = t?.values ?? {};
    return {
      id,
      scopeId: String(v.apiary_id),
      hiveId: String(v.hive_id),
      date: String(v.date),
      apiaryId: String(v.apiary_id),
      queenId: String(v.queen_id),
      events: of("event")
        .filter((e) => !e.deleted && e.values.ref_id === id)
        .map((e) => ({
          id: e.id,
          scopeId: String(e.values.apiary_id),
          type: Number(e.values.type),
          date: String(e.values.date),
          apiaryId: String(e.values.apiary_id),
          queenId: String(e.values.queen_id),
          title: String(e.values.title),
          amountKg: Number(e.values.amount_kg),
        })),
    };
  };
  const values = (key: string): Values => rows.get(key)?.values ?? {};
  return { apply, of, state, values };
}

const hive = { id: "hive-1", apiaryId: "apiary-1", queenId: "" };
const base = {
  hiveId: "hive-1",
  product: "Oxalic acid",
  activeIngredient: "oxalic acid",
  dose: "50 ml",
  method: "trickling",
  batchNumber: "L-22",
  withdrawalUntil: null,
  reason: "",
  supplier: "Apotheke",
  date: "2025-12-20T09:00:00.000Z",
};

describe("registerEntries", () => {
  it("keeps every version of a corrected treatment and a deleted one, with who and when", () => {
    const r = replica();
    const alice = fakeContext({ authorId: "alice", now: new Date("2026-01-02T10:00:00.000Z") });
    const first = createTreatment(alice, hive, base);
    r.apply(first.changes);
    const second = createTreatment(
      { ...alice, newId: () => "tr-2" },
      { ...hive, apiaryId: "apiary-2" },
      { ...base, date: "2025-12-21T09:00:00.000Z", product: "Thymol" },
    );
    r.apply(second.changes);
    const bob = fakeContext({ authorId: "bob", now: new Date("2026-01-05T10:00:00.000Z") });
    r.apply(
      updateTreatment(
        { ...bob, newId: () => "ev-b" },
        r.state(first.id),
        hive,
        { ...base, id: first.id, dose: "40 ml" },
        r.values(`treatment/${first.id}`),
      ),
    );
    const carol = fakeContext({ authorId: "carol", now: new Date("2026-01-06T10:00:00.000Z") });
    r.apply(deleteTreatment(carol, r.state("tr-2"), "tr-2"));

    // The timeline keeps one live event per treatment; the trail holds every version.
    const live = r.of("event").filter((e) => !e.deleted && e.values.ref_id === first.id);
    expect(live).toHaveLength(1);
    const entries = registerEntries(r.of("treatment"), r.of("event"), { year: 2025 });
    expect(entries.map((e) => e.id)).toEqual([first.id, "tr-2"]);
    const [corrected, deleted] = entries;
    expect(corrected?.deleted).toBe(false);
    expect(corrected?.values.dose).toBe("40 ml");
    expect(
      corrected?.versions.map((v) => [v.authorId, v.writtenAt, v.values.dose, v.values.supplier]),
    ).toEqual([
      ["alice", "2026-01-02T10:00:00.000Z", "50 ml", "Apotheke"],
      ["bob", "2026-01-05T10:00:00.000Z", "40 ml", "Apotheke"],
    ]);
    expect(deleted).toMatchObject({
      deleted: true,
      deletedBy: "carol",
      deletedAt: "2026-01-06T10:00:00.000Z",
    });
    expect(deleted?.values.product).toBe("Thymol");
    expect(deleted?.versions.map((v) => v.authorId)).toEqual(["alice"]);

    expect(registerEntries(r.of("treatment"), r.of("event"), { year: 2026 })).toEqual([]);
    expect(
      registerEntries(r.of("treatment"), r.of("event"), { apiaryId: "apiary-2" }).map((e) => e.id),
    ).toEqual(["tr-2"]);
  });

  it("reads a treatment without events, and an event written before the snapshots, as one version each", () => {
    const treatment = {
      id: "t1",
      deleted: false,
      values: {
        product: "Old",
        date: "2024-05-01T00:00:00.000Z",
        created_at: "2024-05-02T00:00:00.000Z",
      },
    };
    const [alone] = registerEntries([treatment], []);
    expect(alone?.versions).toEqual([
      {
        values: { id: "t1", ...treatment.values },
        authorId: "",
        writtenAt: "2024-05-02T00:00:00.000Z",
      },
    ]);
    const legacy = {
      id: "e1",
      deleted: false,
      values: {
        type: 6,
        ref_entity: "treatment",
        ref_id: "t1",
        title: "Old",
        detail_json: "",
        author_id: "u",
      },
    };
    const [withLegacy] = registerEntries([treatment], [legacy]);
    expect(withLegacy?.versions.map((v) => [v.authorId, v.values.product])).toEqual([["u", "Old"]]);
  });
});

describe("the register's year", () => {
  it("is the year of the treatment's date in the reader's time zone", () => {
    // Given at 00:30 on New Year's Day in Berlin: 23:30 UTC on New Year's Eve.
    const newYear = {
      id: "tr-ny",
      values: { date: "2025-12-31T23:30:00.000Z", product: "Oxuvar" },
      deleted: false,
    };
    const ids = (filter: { year: number; timeZone?: string }) =>
      registerEntries([newYear], [], filter).map((e) => e.id);
    expect(ids({ year: 2026, timeZone: "Europe/Berlin" })).toEqual(["tr-ny"]);
    expect(ids({ year: 2025, timeZone: "Europe/Berlin" })).toEqual([]);
    expect(ids({ year: 2025 })).toEqual(["tr-ny"]);
  });
});
