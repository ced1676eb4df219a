import { describe, expect, it } from "vitest";
import { errorOf, fakeContext } from "../../testing/command-context.ts";
import { EventType } from "./event.ts";
import { type CreateHarvestInput, createHarvest, deleteHarvest, harvestTitle } from "./harvest.ts";

const input: CreateHarvestInput = {
  hiveId: "hive-1",
  amountKg: 12.5,
  date: "2026-05-19T08:00:00.000Z",
  variety: " Acacia ",
  waterContent: 17.2,
  batchNumber: "B-7",
  bestBefore: "2028-05-19T00:00:00.000Z",
  note: "",
};
const hive = { id: "hive-1", apiaryId: "apiary-1", queenId: "queen-1" };

describe("harvestTitle", () => {
  it("is '<amountKg> kg <variety>' with the number as JS String() writes it", () => {
    expect(harvestTitle(12.5, "Acacia")).toBe("12.5 kg Acacia");
    expect(harvestTitle(3, "Linden")).toBe("3 kg Linden");
    expect(harvestTitle(0.1 + 0.2, "Forest")).toBe("0.30000000000000004 kg Forest");
  });

  it("is 'Honey' when the variety is empty", () => {
    expect(harvestTitle(12.5, "")).toBe("Honey");
    expect(harvestTitle(12.5, "   ")).toBe("Honey");
  });
});

describe("createHarvest", () => {
  it("freezes the hive's apiary and queen and records a HARVEST event with the amount", () => {
    const { id, changes } = createHarvest(fakeContext(), hive, input);
    expect(id).toBe("id-1");
    expect(changes.map((c) => [c.entity, c.entityId, c.scopeId, c.op])).toEqual([
      ["harvest", "id-1", "apiary-1", "upsert"],
      ["event", "id-2", "apiary-1", "upsert"],
    ]);
    expect(changes[0]?.payload).toMatchObject({
      hive_id: "hive-1",
      apiary_id: "apiary-1",
      queen_id: "queen-1",
      date: input.date,
      variety: "Acacia",
      amount_kg: 12.5,
      water_content: 17.2,
      best_before: input.bestBefore,
      created_at: "2026-05-20T10:00:00.000Z",
    });
    expect(changes[1]?.payload).toMatchObject({
      type: EventType.HARVEST,
      date: input.date,
      apiary_id: "apiary-1",
      hive_id: "hive-1",
      queen_id: "queen-1",
      ref_entity: "harvest",
      ref_id: "id-1",
      amount_kg: 12.5,
      title: "12.5 kg Acacia",
      author_id: "user-1",
    });
  });

  it("rejects a missing hiveId before looking at the hive", () => {
    const e = errorOf(() => createHarvest(fakeContext(), undefined, { ...input, hiveId: "" }));
    expect([e.code, e.field, e.message]).toEqual(["invalid", "hiveId", "hiveId is required"]);
  });

  it("rejects an amount that is not above 0", () => {
    for (const amountKg of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      const e = errorOf(() => createHarvest(fakeContext(), hive, { ...input, amountKg }));
      expect([e.code, e.field], String(amountKg)).toEqual(["invalid", "amountKg"]);
    }
  });

  it("rejects a water content outside 0–100 %", () => {
    for (const waterContent of [-0.1, 100.1, Number.NaN]) {
      const e = errorOf(() => createHarvest(fakeContext(), hive, { ...input, waterContent }));
      expect([e.code, e.field]).toEqual(["invalid", "waterContent"]);
    }
  });

  it("answers not_found for a hive that does not exist", () => {
    const e = errorOf(() => createHarvest(fakeContext(), undefined, input));
    expect(e.code).toBe("not_found");
  });
});

describe("deleteHarvest", () => {
  it("tombstones the harvest and its HARVEST events in their scopes", () => {
    const changes = deleteHarvest(
      fakeContext(),
      { id: "h-1", scopeId: "apiary-1", events: [{ id: "e-1", scopeId: "apiary-1" }] },
      "h-1",
    );
    expect(changes.map((c) => [c.entity, c.entityId, c.scopeId, c.op])).toEqual([
      ["harvest", "h-1", "apiary-1", "delete"],
      ["event", "e-1", "apiary-1", "delete"],
    ]);
  });

  it("answers not_found for an unknown harvest", () => {
    expect(errorOf(() => deleteHarvest(fakeContext(), undefined, "nope")).code).toBe("not_found");
  });
});

describe("createHarvest dates", () => {
  it("refuses a date more than a day ahead of now (invalid date); bestBefore is planned and free", () => {
    // fakeContext's now is 2026-05-20T10:00Z.
    const e = errorOf(() =>
      createHarvest(fakeContext(), hive, { ...input, date: "2026-05-22T10:00:00.000Z" }),
    );
    expect([e.code, e.field, e.message]).toEqual([
      "invalid",
      "date",
      "date cannot be in the future",
    ]);
    const soon = { ...input, date: "2026-05-21T09:00:00.000Z" };
    expect(createHarvest(fakeContext(), hive, soon).changes).toHaveLength(2);
  });
});
