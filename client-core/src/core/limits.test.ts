import { describe, expect, it } from "vitest";
import { DomainError } from "./domain-error.ts";
import { requestedLimit } from "./limits.ts";

describe("requestedLimit", () => {
  it("takes the default for 0, the request up to the maximum, and caps above it", () => {
    expect(requestedLimit(0, 50, 500, "page.pageSize")).toBe(50);
    expect(requestedLimit(1, 50, 500, "page.pageSize")).toBe(1);
    expect(requestedLimit(500, 50, 500, "page.pageSize")).toBe(500);
    expect(requestedLimit(501, 50, 500, "page.pageSize")).toBe(500);
  });

  it("refuses a negative limit as invalid, naming the field", () => {
    let err: unknown;
    try {
      requestedLimit(-1, 100, 1000, "limit");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({
      code: "invalid",
      field: "limit",
      message: "limit must not be negative",
    });
  });
});
