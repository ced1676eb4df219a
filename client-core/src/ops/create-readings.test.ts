import { describe, expect, it } from "vitest";
import { readingId } from "./create-readings.ts";

describe("readingId", () => {
  it("derives the ids readings were stored under: a stored reading sent again must find its row", () => {
    const hive = "01a21d97-08d4-73b7-a9b0-cbdf752097b2";
    // Ids as the first version derived them (UUID v5 of hive, NUL, key in the reading namespace).
    expect(readingId(hive, "scale-1:2026-05-11T04:15:00.000Z")).toBe(
      "e3c837c8-26f6-5571-bb22-bea99438b1cd",
    );
    expect(readingId(hive, "k")).toBe("e50a12c4-68d1-58f1-bece-737dd6fdf983");
    expect(readingId(hive, "Waage é ✓")).toBe("86844ad4-caa0-5347-bd2e-c08e47e56028");
    expect(readingId("another-hive", "k")).not.toBe(readingId(hive, "k"));
  });
});
