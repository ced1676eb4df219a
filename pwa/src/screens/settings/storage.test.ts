import { describe, expect, it } from "vitest";
import { formatBytes, readStorage } from "./storage.ts";

describe("formatBytes", () => {
  // Intl puts a no-break space between number and unit in some locales.
  const f = (locale: string, n: number) => formatBytes(locale, n).replace(/\s/g, " ");
  it("picks kB, MB or GB", () => {
    expect(f("en-GB", 0)).toBe("0 kB");
    expect(f("en-GB", 2_345)).toBe("2.3 kB");
    expect(f("en-GB", 12_500_000)).toBe("13 MB");
    expect(f("en-GB", 3_210_000_000)).toBe("3.2 GB");
    expect(f("de-DE", 3_210_000_000)).toBe("3,2 GB");
  });
});

describe("readStorage", () => {
  it("reads the estimate and persistence, and copes without them", async () => {
    const storage = {
      estimate: async () => ({ usage: 10, quota: 100 }),
      persisted: async () => true,
    } as unknown as StorageManager;
    expect(await readStorage(storage)).toEqual({ usage: 10, quota: 100, persisted: true });
    expect(await readStorage(undefined)).toEqual({
      usage: undefined,
      quota: undefined,
      persisted: undefined,
    });
  });
});
