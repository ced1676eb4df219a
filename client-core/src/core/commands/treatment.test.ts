import { describe, expect, it } from "vitest";
import { errorOf, fakeContext } from "../../testing/command-context.ts";
import { EventType } from "./event.ts";
import { type CreateTreatmentInput, createTreatment } from "./treatment.ts";

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
