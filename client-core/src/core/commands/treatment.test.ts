import { describe, expect, it } from "vitest";
import { errorOf, fakeContext } from "../../testing/command-context.ts";
import { EventType, type HiveRecordState } from "./event.ts";
import {
  type CreateTreatmentInput,
  createTreatment,
  deleteTreatment,
  updateTreatment,
} from "./treatment.ts";

const input: CreateTreatmentInput = {
  hiveId: "hive-1",
  product: " Oxalic acid 3.5% ",
  activeIngredient: "oxalic acid",
  dose: "50 ml",
  method: "trickling",
  batchNumber: "L-22",
  withdrawalUntil: null,
  reason: "",
  date: "2025-12-20T09:00:00.000Z",
};
const hive = { id: "hive-1", apiaryId: "apiary-1", queenId: "queen-1" };

describe("createTreatment", () => {
  it("freezes apiary and queen, defaults the reason to varroa and records a TREATMENT event", () => {
    const { id, changes } = createTreatment(fakeContext(), hive, input);
    expect(id).toBe("id-1");
    const [row, event] = changes;
    expect(row).toMatchObject({ entity: "treatment", entityId: "id-1", scopeId: "apiary-1" });
    expect(row?.payload).toEqual({
      hive_id: "hive-1",
      product: "Oxalic acid 3.5%",
      active_ingredient: "oxalic acid",
      dose: "50 ml",
      method: "trickling",
      batch_number: "L-22",
      withdrawal_until: null,
      reason: "varroa",
      date: "2025-12-20T09:00:00.000Z",
      apiary_id: "apiary-1",
      queen_id: "queen-1",
      supplier: "",
      created_at: "2026-05-20T10:00:00.000Z",
    });
    expect(event?.payload).toMatchObject({
      type: EventType.TREATMENT,
      date: "2025-12-20T09:00:00.000Z",
      apiary_id: "apiary-1",
      hive_id: "hive-1",
      queen_id: "queen-1",
      ref_entity: "treatment",
      ref_id: "id-1",
      title: "Oxalic acid 3.5%",
    });
    // The register's snapshot: every register field but the date (the event's own).
    expect(JSON.parse(String(event?.payload.detail_json))).toEqual({
      register: {
        product: "Oxalic acid 3.5%",
        active_ingredient: "oxalic acid",
        dose: "50 ml",
        method: "trickling",
        batch_number: "L-22",
        withdrawal_until: null,
        reason: "varroa",
        supplier: "",
      },
    });
  });

  it("keeps a reason that is given and a withdrawal date", () => {
    const { changes } = createTreatment(fakeContext(), hive, {
      ...input,
      reason: "nosema",
      withdrawalUntil: "2026-01-20T00:00:00Z",
    });
    expect(changes[0]?.payload).toMatchObject({
      reason: "nosema",
      withdrawal_until: "2026-01-20T00:00:00.000Z",
    });
  });

  it("requires hiveId and product before it looks at the hive", () => {
    const noHive = errorOf(() =>
      createTreatment(fakeContext(), undefined, { ...input, hiveId: "" }),
    );
    expect([noHive.code, noHive.message]).toEqual(["invalid", "hiveId is required"]);
    const noProduct = errorOf(() =>
      createTreatment(fakeContext(), undefined, { ...input, product: "  " }),
    );
    expect([noProduct.code, noProduct.field, noProduct.message]).toEqual([
      "invalid",
      "product",
      "product is required",
    ]);
  });

  it("answers not_found for a hive that does not exist", () => {
    expect(errorOf(() => createTreatment(fakeContext(), undefined, input)).code).toBe("not_found");
  });

  it("refuses over-long text and dates outside 0001-9999", () => {
    const long = errorOf(() =>
      createTreatment(fakeContext(), hive, { ...input, dose: "x".repeat(10_001) }),
    );
    expect(long.field).toBe("dose");
    const early = errorOf(() =>
      createTreatment(fakeContext(), hive, {
        ...input,
        withdrawalUntil: "+010000-01-01T00:00:00Z",
      }),
    );
    expect(early.field).toBe("withdrawalUntil");
  });
});

describe("updateTreatment / deleteTreatment", () => {
  const stored: HiveRecordState = {
    id: "tr-1",
    scopeId: "apiary-1",
    hiveId: "hive-1",
    date: "2025-12-20T09:00:00.000Z",
    apiaryId: "apiary-1",
    queenId: "queen-1",
    events: [
      {
        id: "ev-1",
        scopeId: "apiary-1",
        type: EventType.TREATMENT,
        date: "2025-12-20T09:00:00.000Z",
        apiaryId: "apiary-1",
        queenId: "queen-1",
        title: "Oxalic acid 3.5%",
        amountKg: 0,
      },
    ],
  };
  const edit = { ...input, id: "tr-1" };
  /** The stored treatment's columns (what UpdateTreatment compares a correction with). */
  const storedValues = createTreatment(fakeContext(), hive, input).changes[0]?.payload ?? {};

  it("overwrites with CreateTreatment's rules (reason default varroa), never hive_id or created_at; a true event stays", () => {
    expect(updateTreatment(fakeContext(), stored, hive, edit, storedValues)).toHaveLength(1);
    const changes = updateTreatment(fakeContext(), stored, hive, { ...edit, dose: "40 ml" });
    expect(changes[0]?.payload).toEqual({
      product: "Oxalic acid 3.5%",
      active_ingredient: "oxalic acid",
      dose: "40 ml",
      method: "trickling",
      batch_number: "L-22",
      withdrawal_until: null,
      reason: "varroa",
      date: "2025-12-20T09:00:00.000Z",
      supplier: "",
      apiary_id: "apiary-1",
      queen_id: "queen-1",
    });
  });

  it("records a correction of any other register field as a version in the trail, created tombstoned: who corrected it and when", () => {
    const ctx = fakeContext({ authorId: "user-2" });
    const column = {
      dose: "dose",
      supplier: "supplier",
      batchNumber: "batch_number",
      withdrawalUntil: "withdrawal_until",
    } as const;
    for (const [field, value] of [
      ["dose", "40 ml"],
      ["supplier", "Apotheke Nord"],
      ["batchNumber", "L-23"],
      ["withdrawalUntil", "2026-01-10T00:00:00.000Z"],
    ] as const) {
      const changes = updateTreatment(ctx, stored, hive, { ...edit, [field]: value }, storedValues);
      expect(
        changes.map((c) => [c.entity, c.op]),
        field,
      ).toEqual([
        ["treatment", "upsert"],
        ["event", "upsert"],
        ["event", "delete"],
      ]);
      const [, version, gone] = changes;
      expect(gone?.entityId).toBe(version?.entityId);
      expect(version?.payload).toMatchObject({
        type: EventType.TREATMENT,
        author_id: "user-2",
        created_at: ctx.now.toISOString(),
        ref_entity: "treatment",
        ref_id: "tr-1",
        title: "Oxalic acid 3.5%",
      });
      const { register } = JSON.parse(String(version?.payload.detail_json));
      expect(register[column[field]], field).toBe(value);
    }
    // The same values again: nothing for the trail.
    expect(updateTreatment(ctx, stored, hive, edit, storedValues)).toHaveLength(1);
  });

  it("a new product renames the event; a new date re-freezes and moves it", () => {
    const renamed = updateTreatment(fakeContext(), stored, hive, { ...edit, product: "Thymol" });
    expect(renamed.map((c) => [c.entity, c.op])).toEqual([
      ["treatment", "upsert"],
      ["event", "delete"],
      ["event", "upsert"],
    ]);
    expect(renamed[2]?.payload).toMatchObject({ title: "Thymol", ref_id: "tr-1" });
    const earlier = { id: "hive-1", apiaryId: "apiary-0", queenId: "" };
    const date = "2025-11-01T09:00:00.000Z";
    const moved = updateTreatment(fakeContext(), stored, earlier, { ...edit, date });
    expect(moved[0]).toMatchObject({ scopeId: "apiary-0", payload: { apiary_id: "apiary-0" } });
    expect(moved[2]?.payload).toMatchObject({ date, apiary_id: "apiary-0", queen_id: "" });
  });

  it("names the field in the message; a future date is refused on create and update, withdrawalUntil is free", () => {
    expect(errorOf(() => updateTreatment(fakeContext(), stored, hive, undefined)).field).toBe(
      "treatment",
    );
    expect(
      errorOf(() => updateTreatment(fakeContext(), stored, hive, { ...edit, product: " " })),
    ).toMatchObject({ field: "treatment.product", message: "treatment.product is required" });
    const future = "2026-05-22T10:00:00.000Z"; // fakeContext's now is 2026-05-20T10:00Z
    expect(
      errorOf(() => createTreatment(fakeContext(), hive, { ...input, date: future })),
    ).toMatchObject({ code: "invalid", field: "date" });
    expect(
      errorOf(() => updateTreatment(fakeContext(), stored, hive, { ...edit, date: future })),
    ).toMatchObject({ code: "invalid", field: "treatment.date" });
    const later = { ...edit, withdrawalUntil: "2027-01-01T00:00:00.000Z" };
    expect(updateTreatment(fakeContext(), stored, hive, later, storedValues)).toHaveLength(3);
    expect(errorOf(() => updateTreatment(fakeContext(), undefined, hive, edit)).code).toBe(
      "not_found",
    );
  });

  it("deleteTreatment writes who deleted it and when, then tombstones the treatment and its event; unknown is not_found", () => {
    const ctx = fakeContext({ authorId: "user-2" });
    const changes = deleteTreatment(ctx, stored, "tr-1");
    expect(changes.map((c) => [c.entity, c.entityId, c.op])).toEqual([
      ["treatment", "tr-1", "upsert"],
      ["treatment", "tr-1", "delete"],
      ["event", "ev-1", "delete"],
    ]);
    expect(changes[0]?.payload).toEqual({
      deleted_by: "user-2",
      deleted_at: ctx.now.toISOString(),
    });
    expect(errorOf(() => deleteTreatment(fakeContext(), undefined, "x")).code).toBe("not_found");
  });
});
