import { Stores, Temperament } from "@hivekeep/proto";
import { describe, expect, it } from "vitest";
import { errorOf, fakeContext } from "../../testing/command-context.ts";
import { maxPhotoBytes } from "../entities.ts";
import { formatHlc, type Hlc } from "../hlc.ts";
import { emptyOrSet, joinOrSets, type OrSetPatch, orSetFromPatch, orSetValues } from "../or-set.ts";
import { EventType, type HiveRecordState } from "./event.ts";
import {
  addInspectionPhoto,
  type CreateInspectionInput,
  createInspection,
  deleteInspection,
  type InspectionState,
  removeInspectionPhoto,
  updateInspection,
} from "./inspection.ts";

const blank: CreateInspectionInput = {
  hiveId: "hive-1",
  date: "2026-05-19T08:00:00.000Z",
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
  frames: 0,
  broodFrames: 0,
  stores: Stores.UNSPECIFIED,
  temperament: Temperament.UNSPECIFIED,
  calmness: 0,
  queenCells: 0,
  varroa: "",
  superAdded: false,
};
const hive = { id: "hive-1", apiaryId: "apiary-1", queenId: "queen-1" };

const photo = (body = "AAAA"): string => `data:image/png;base64,${body}`;

/** An inspection whose photo_keys went through the given patches (tag = HLC). */
function stateWith(...patches: [OrSetPatch, Hlc][]): InspectionState {
  let photoKeys = emptyOrSet();
  for (const [patch, tag] of patches) photoKeys = joinOrSets(photoKeys, orSetFromPatch(patch, tag));
  return { id: "insp-1", scopeId: "apiary-1", photoKeys };
}
const tag = (counter: number): Hlc => formatHlc({ ms: 1_700_000_000_000, counter, node: "dev" });

describe("createInspection", () => {
  it("freezes the hive's apiary and queen and records an INSPECTION event", () => {
    const { id, changes } = createInspection(fakeContext(), hive, { ...blank, weightKg: 41.2 });
    expect(id).toBe("id-1");
    const [row, event] = changes;
    expect(row).toMatchObject({ entity: "inspection", entityId: "id-1", scopeId: "apiary-1" });
    expect(row?.payload).toMatchObject({
      hive_id: "hive-1",
      apiary_id: "apiary-1",
      queen_id: "queen-1",
      date: "2026-05-19T08:00:00.000Z",
      weight_kg: 41.2,
      created_at: "2026-05-20T10:00:00.000Z",
    });
    expect(event).toMatchObject({ entity: "event", scopeId: "apiary-1" });
    expect(event?.payload).toMatchObject({
      type: EventType.INSPECTION,
      date: "2026-05-19T08:00:00.000Z",
      apiary_id: "apiary-1",
      hive_id: "hive-1",
      queen_id: "queen-1",
      ref_entity: "inspection",
      ref_id: "id-1",
      title: "Inspection",
    });
  });

  it("requires hiveId before it looks at the hive", () => {
    const e = errorOf(() => createInspection(fakeContext(), undefined, { ...blank, hiveId: " " }));
    expect([e.code, e.field, e.message]).toEqual(["invalid", "hiveId", "hiveId is required"]);
  });

  it("answers not_found for a hive that does not exist", () => {
    expect(errorOf(() => createInspection(fakeContext(), undefined, blank)).code).toBe("not_found");
  });

  it("refuses what a device's Push would refuse, naming the request field", () => {
    const cases: [Partial<CreateInspectionInput>, string][] = [
      [{ weightKg: Number.NaN }, "weightKg"],
      [{ tempOutside: Number.POSITIVE_INFINITY }, "tempOutside"],
      [{ stores: 42 as Stores }, "stores"],
      [{ note: "x".repeat(10_001) }, "note"],
      [{ date: "0000-12-31T00:00:00.000Z" }, "date"],
      [{ frames: -1 }, "frames"],
      [{ queenCells: -2 }, "queenCells"],
    ];
    for (const [patch, field] of cases) {
      const e = errorOf(() => createInspection(fakeContext(), hive, { ...blank, ...patch }));
      expect([e.code, e.field], field).toEqual(["invalid", field]);
    }
  });
});

describe("addInspectionPhoto", () => {
  it("adds the photo as an OR-set add in the inspection's scope", () => {
    const changes = addInspectionPhoto(fakeContext(), stateWith(), "insp-1", photo());
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      entity: "inspection",
      entityId: "insp-1",
      scopeId: "apiary-1",
      payload: { photo_keys: { add: [photo()] } },
    });
  });

  it("accepts exactly 512 KiB including the prefix and refuses one byte more", () => {
    const prefix = "data:image/png;base64,";
    const atLimit = prefix + "A".repeat(maxPhotoBytes - prefix.length);
    expect(addInspectionPhoto(fakeContext(), stateWith(), "insp-1", atLimit)).toHaveLength(1);
    const e = errorOf(() =>
      addInspectionPhoto(fakeContext(), stateWith(), "insp-1", `${atLimit}A`),
    );
    expect([e.code, e.field]).toEqual(["invalid", "photo"]);
    // Bytes are UTF-8 bytes: "é" is 2 bytes.
    const twoByte = prefix + "é".repeat((maxPhotoBytes - prefix.length) / 2 + 1);
    expect(errorOf(() => addInspectionPhoto(fakeContext(), stateWith(), "i", twoByte)).code).toBe(
      "invalid",
    );
  });

  it("refuses a photo that is not a data:image/ URL, before looking for the inspection", () => {
    for (const bad of ["", "https://x/y.png", "data:text/plain,hi", "DATA:IMAGE/png,x"]) {
      const e = errorOf(() => addInspectionPhoto(fakeContext(), undefined, "insp-1", bad));
      expect([e.code, e.field], bad).toEqual(["invalid", "photo"]);
    }
  });

  it("answers not_found for an inspection that does not exist", () => {
    const e = errorOf(() => addInspectionPhoto(fakeContext(), undefined, "nope", photo()));
    expect(e.code).toBe("not_found");
  });

  it("changes nothing when the photo is already stored", () => {
    const state = stateWith([{ add: [photo()] }, tag(1)]);
    expect(addInspectionPhoto(fakeContext(), state, "insp-1", photo())).toEqual([]);
  });

  it("counts what the set stores: 20 copies of one photo leave no room for another", () => {
    const copies = Array.from({ length: 20 }, (_, i): [OrSetPatch, Hlc] => [
      { add: [photo("A")] },
      tag(i),
    ]);
    const e = errorOf(() =>
      addInspectionPhoto(fakeContext(), stateWith(...copies), "insp-1", photo("B")),
    );
    expect([e.code, e.field]).toEqual(["invalid", "photo"]);
    expect(
      addInspectionPhoto(fakeContext(), stateWith(...copies.slice(1)), "insp-1", photo("B")),
    ).toHaveLength(1);
  });
});

describe("removeInspectionPhoto", () => {
  it("removes every live tag of the value and leaves other photos", () => {
    // The same photo added twice concurrently (two tags), plus another photo.
    const state = stateWith(
      [{ add: [photo("A")] }, tag(1)],
      [{ add: [photo("B")] }, tag(2)],
      [{ add: [photo("A")] }, tag(3)],
    );
    const changes = removeInspectionPhoto(fakeContext(), state, "insp-1", photo("A"));
    expect(changes).toHaveLength(1);
    const patch = changes[0]?.payload.photo_keys as OrSetPatch;
    expect(patch).toEqual({ remove: [tag(1), tag(3)] });
    const after = joinOrSets(state.photoKeys, orSetFromPatch(patch, tag(9)));
    expect(orSetValues(after)).toEqual([photo("B")]);
  });

  it("names at most 20 tags a change: a photo stored more often is removed by several", () => {
    // A set written before the cap counted copies: one photo under 45 tags.
    const copies = Array.from({ length: 45 }, (_, i): [OrSetPatch, Hlc] => [
      { add: [photo("A")] },
      tag(i),
    ]);
    const state = stateWith(...copies);
    const changes = removeInspectionPhoto(fakeContext(), state, "insp-1", photo("A"));
    const patches = changes.map((c) => c.payload.photo_keys as OrSetPatch);
    expect(patches.map((p) => p.remove?.length)).toEqual([20, 20, 5]);
    const after = changes.reduce(
      (s, c, i) => joinOrSets(s, orSetFromPatch(patches[i] ?? {}, c.hlc)),
      state.photoKeys,
    );
    expect(orSetValues(after)).toEqual([]);
  });

  it("is a no-op for a photo that is not stored", () => {
    const state = stateWith([{ add: [photo("A")] }, tag(1)]);
    expect(removeInspectionPhoto(fakeContext(), state, "insp-1", photo("Z"))).toEqual([]);
  });

  it("requires the photo and an existing inspection", () => {
    const empty = errorOf(() => removeInspectionPhoto(fakeContext(), stateWith(), "insp-1", ""));
    expect([empty.code, empty.field]).toEqual(["invalid", "photo"]);
    const missing = errorOf(() => removeInspectionPhoto(fakeContext(), undefined, "x", photo()));
    expect(missing.code).toBe("not_found");
  });
});

describe("updateInspection / deleteInspection", () => {
  const stored: HiveRecordState = {
    id: "insp-1",
    scopeId: "apiary-1",
    hiveId: "hive-1",
    date: "2026-05-19T08:00:00.000Z",
    apiaryId: "apiary-1",
    queenId: "queen-1",
    events: [
      {
        id: "ev-1",
        scopeId: "apiary-1",
        type: EventType.INSPECTION,
        date: "2026-05-19T08:00:00.000Z",
        apiaryId: "apiary-1",
        queenId: "queen-1",
        title: "Inspection",
        amountKg: 0,
      },
    ],
  };
  const edit = { ...blank, id: "insp-1", note: "typo fixed", frames: 9 };
  const earlier = { id: "hive-1", apiaryId: "apiary-0", queenId: "" };

  it("overwrites the fields (left-out ones take their defaults), never hive_id, created_at or photo_keys", () => {
    const changes = updateInspection(fakeContext(), stored, hive, edit);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ entity: "inspection", entityId: "insp-1", op: "upsert" });
    const payload = changes[0]?.payload ?? {};
    expect(payload).toMatchObject({
      note: "typo fixed",
      frames: 9,
      weight_kg: 0,
      apiary_id: "apiary-1",
      queen_id: "queen-1",
    });
    for (const column of ["hive_id", "created_at", "photo_keys"]) {
      expect(payload, column).not.toHaveProperty(column);
    }
  });

  it("a changed date re-freezes the apiary and queen as of it, and the event follows", () => {
    const date = "2026-04-01T08:00:00.000Z";
    const changes = updateInspection(fakeContext(), stored, earlier, { ...edit, date });
    expect(changes.map((c) => [c.entity, c.op, c.scopeId])).toEqual([
      ["inspection", "upsert", "apiary-0"],
      ["event", "delete", "apiary-1"],
      ["event", "upsert", "apiary-0"],
    ]);
    expect(changes[0]?.payload).toMatchObject({ date, apiary_id: "apiary-0", queen_id: "" });
    expect(changes[2]?.payload).toMatchObject({ date, apiary_id: "apiary-0", ref_id: "insp-1" });
  });

  it("checks like CreateInspection, naming the field in the message; a missing one is invalid", () => {
    expect(errorOf(() => updateInspection(fakeContext(), stored, hive, undefined)).field).toBe(
      "inspection",
    );
    expect(
      errorOf(() => updateInspection(fakeContext(), stored, hive, { ...edit, frames: -1 })),
    ).toMatchObject({ code: "invalid", field: "inspection.frames" });
    expect(errorOf(() => updateInspection(fakeContext(), undefined, hive, edit))).toMatchObject({
      code: "not_found",
    });
  });

  it("refuses a date more than a day ahead of now, on create and update", () => {
    const future = "2026-05-22T10:00:00.000Z"; // fakeContext's now is 2026-05-20T10:00Z
    expect(
      errorOf(() => createInspection(fakeContext(), hive, { ...blank, date: future })),
    ).toMatchObject({ code: "invalid", field: "date", message: "date cannot be in the future" });
    expect(
      errorOf(() => updateInspection(fakeContext(), stored, hive, { ...edit, date: future })),
    ).toMatchObject({ code: "invalid", field: "inspection.date" });
    // Within the day of tolerance.
    const soon = "2026-05-21T09:00:00.000Z";
    expect(createInspection(fakeContext(), hive, { ...blank, date: soon }).changes).toHaveLength(2);
  });

  it("deleteInspection tombstones the inspection and its event; unknown is not_found", () => {
    const changes = deleteInspection(fakeContext(), stored, "insp-1");
    expect(changes.map((c) => [c.entity, c.entityId, c.op])).toEqual([
      ["inspection", "insp-1", "delete"],
      ["event", "ev-1", "delete"],
    ]);
    expect(errorOf(() => deleteInspection(fakeContext(), undefined, "x")).code).toBe("not_found");
  });
});
