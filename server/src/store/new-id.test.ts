import { validate, version } from "uuid";
import { describe, expect, it } from "vitest";
import { newIdSource } from "./new-id.ts";

describe("newIdSource", () => {
  it("makes distinct UUID v7 ids that sort in the order they were made, within a millisecond and across", () => {
    let ms = Date.parse("2026-06-01T00:00:00Z");
    const newId = newIdSource(() => ms);
    const ids: string[] = [];
    // More ids than one fill of the pool holds (256), some milliseconds apart.
    for (let i = 0; i < 1000; i++) {
      if (i % 300 === 299) ms += 1;
      ids.push(newId());
    }
    for (const id of ids) {
      expect(validate(id)).toBe(true);
      expect(version(id)).toBe(7);
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it("stamps the id's time with the clock it is given", () => {
    const ms = Date.parse("2026-06-01T12:34:56.789Z");
    const id = newIdSource(() => ms)();
    expect(Number.parseInt(id.replace(/-/g, "").slice(0, 12), 16)).toBe(ms);
  });
});
