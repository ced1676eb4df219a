import type { QuarantinedItem } from "@hivekeep/client-core";
import { describe, expect, it } from "vitest";
import { paths } from "../../app/paths.ts";
import { recordName, recordPath } from "./present.ts";

type Change = QuarantinedItem["change"];
const refused = (
  entity: Change["entity"],
  payload: Change["payload"],
  op: Change["op"] = "upsert",
) => ({
  change: { entity, entityId: "r1", scopeId: "a1", op, payload, hlc: "", authorId: "u1" } as Change,
});

describe("recordPath", () => {
  it("opens the record's own page where it has one, and the task list for a task", () => {
    expect(recordPath(refused("apiary", {}))).toBe(paths.apiary("r1"));
    expect(recordPath(refused("hive", {}))).toBe(paths.hive("r1"));
    expect(recordPath(refused("inspection", {}))).toBe(paths.inspection("r1"));
    expect(recordPath(refused("task", { title: "x" }))).toBe(paths.tasks);
  });

  it("opens the hive of a record that belongs to one, when the change names it", () => {
    for (const entity of ["placement", "queen", "treatment", "harvest", "event"] as const) {
      expect(recordPath(refused(entity, { hive_id: "h9" }))).toBe(paths.hive("h9"));
      expect(recordPath(refused(entity, { amount_kg: 3 }))).toBeUndefined();
    }
  });
});

describe("recordName", () => {
  it("takes the first of name, title, variety and product the change carries", () => {
    expect(recordName(refused("hive", { name: "Volk 1", title: "x" }))).toBe("Volk 1");
    expect(recordName(refused("task", { title: "Mow" }))).toBe("Mow");
    expect(recordName(refused("harvest", { variety: "Linden", product: "x" }))).toBe("Linden");
    expect(recordName(refused("treatment", { product: "Oxuvar" }))).toBe("Oxuvar");
  });

  it("has none for a blank name or a change without one", () => {
    expect(recordName(refused("apiary", { name: "  " }))).toBeUndefined();
    expect(recordName(refused("hive", {}, "delete"))).toBeUndefined();
  });
});
