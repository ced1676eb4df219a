import { describe, expect, it } from "vitest";
import { idempotencyKeyProblem, parseIdempotencyKey } from "./idempotency-key.ts";

describe("parseIdempotencyKey", () => {
  it("takes a bare key and a Structured Field String alike", () => {
    expect(parseIdempotencyKey("scale-7:2026-06-01T08:00Z")).toEqual({
      key: "scale-7:2026-06-01T08:00Z",
    });
    expect(parseIdempotencyKey('"8e03978e-40d5-43e8-bc93-6894a57f9324"')).toEqual({
      key: "8e03978e-40d5-43e8-bc93-6894a57f9324",
    });
    expect(parseIdempotencyKey('"a \\"quoted\\" \\\\ key"')).toEqual({ key: 'a "quoted" \\ key' });
    expect(parseIdempotencyKey("  padded  ")).toEqual({ key: "padded" });
  });

  it("refuses a broken quoted string, an empty key, over 255 characters and non-printable ASCII", () => {
    for (const bad of [
      '"open',
      '"a"b"',
      '"bad \\x escape"',
      '""',
      "",
      "k".repeat(256),
      "tab\there",
      "café",
    ]) {
      expect(parseIdempotencyKey(bad), JSON.stringify(bad)).toHaveProperty("error");
    }
    expect(parseIdempotencyKey("k".repeat(255))).toEqual({ key: "k".repeat(255) });
    expect(idempotencyKeyProblem("k".repeat(256), "idempotencyKey")).toBe(
      "idempotencyKey is 256 characters long, at most 255 are allowed",
    );
  });
});
