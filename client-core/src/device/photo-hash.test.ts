import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { devicePhotoHash } from "./photo-hash.ts";

describe("devicePhotoHash", () => {
  it("is the server's hash: SHA-256 of the UTF-8, base64url", () => {
    for (const text of [
      "",
      "data:image/png;base64,AAAA",
      "ä€😀".repeat(1000),
      "x".repeat(600_000),
    ]) {
      expect(devicePhotoHash(text)).toBe(
        createHash("sha256").update(text, "utf8").digest("base64url"),
      );
    }
  });
});
