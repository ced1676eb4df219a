/**
 * Clock observation cannot be forgotten: the store's writer observes every row an operation
 * reads (`observeReads`, proven by the store suite), so no service observes a clock by hand. A
 * service that did would be a second, forgettable implementation of the rule.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ops = fileURLToPath(new URL(".", import.meta.url));
const services = readdirSync(ops).filter((f) => f.endsWith("-service.ts"));

describe("the record services", () => {
  it("are all checked", () => {
    expect(services).toEqual(expect.arrayContaining(["hive-service.ts", "queen-service.ts"]));
    expect(services.length).toBeGreaterThanOrEqual(8);
  });

  it("never call observe( by hand", () => {
    const calling = services.filter((f) => readFileSync(`${ops}${f}`, "utf8").includes("observe("));
    expect(calling).toEqual([]);
  });
});
