import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  TreatmentRegisterEntrySchema,
  TreatmentSchema,
  TreatmentVersionSchema,
} from "@hivekeep/proto";
import { describe, expect, it } from "vitest";
import { registerLines } from "./register-rows.ts";

const at = (iso: string) => timestampFromDate(new Date(iso));
const treatment = (dose: string, supplier = "") =>
  create(TreatmentSchema, {
    id: "t1",
    hiveId: "h1",
    product: "OA",
    dose,
    supplier,
    date: at("2026-04-01T08:00:00Z"),
  });
const version = (t: ReturnType<typeof treatment>, author: string, iso: string) =>
  create(TreatmentVersionSchema, { treatment: t, authorId: author, writtenAt: at(iso) });
const names = { user: (id: string) => `<${id}>` };

describe("registerLines", () => {
  it("shows earlier versions as replaced (when, by whom), then the standing one", () => {
    const entry = create(TreatmentRegisterEntrySchema, {
      treatment: treatment("50 ml"),
      versions: [
        version(treatment("30 ml"), "ann", "2026-04-01T09:00:00Z"),
        version(treatment("50 ml"), "bob", "2026-04-02T09:00:00Z"),
      ],
    });
    const lines = registerLines([entry], names);
    expect(lines.map((l) => [l.state, l.treatment.dose, l.recordedBy, l.changedBy])).toEqual([
      ["replaced", "30 ml", "<ann>", "<bob>"],
      ["current", "50 ml", "<ann>", undefined],
    ]);
    expect(lines[0]?.changedAt?.toISOString()).toBe("2026-04-02T09:00:00.000Z");
    expect(lines[1]?.corrected).toBe(true);
  });

  it("keeps a version merged with a correction from another device, and a deletion with who and when", () => {
    const merged = create(TreatmentRegisterEntrySchema, {
      treatment: treatment("50 ml", "Apotheke"),
      versions: [
        version(treatment("30 ml"), "ann", "2026-04-01T09:00:00Z"),
        version(treatment("50 ml"), "ann", "2026-04-02T09:00:00Z"),
        version(treatment("30 ml", "Apotheke"), "bob", "2026-04-02T10:00:00Z"),
      ],
      deleted: true,
      deletedBy: "cid",
      deletedAt: at("2026-04-03T00:00:00Z"),
    });
    const lines = registerLines([merged], names);
    expect(lines.map((l) => [l.state, l.treatment.dose, l.treatment.supplier])).toEqual([
      ["replaced", "30 ml", ""],
      ["replaced", "50 ml", ""],
      ["merged", "30 ml", "Apotheke"],
      ["deleted", "50 ml", "Apotheke"],
    ]);
    expect(lines.at(-1)?.changedBy).toBe("<cid>");
  });
});
