import { ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { parseCursor } from "./cursor.ts";

describe("parseCursor", () => {
  it("reads the empty cursor as the start and digits as a sequence number", () => {
    expect(parseCursor("")).toBe(0);
    expect(parseCursor("42")).toBe(42);
    expect(parseCursor("999999999999999")).toBe(999_999_999_999_999);
  });

  it("refuses anything else as invalid_argument, quoting at most a short prefix", () => {
    for (const bad of ["-1", "1.5", " 1", "1e3", "abc", "1\u0000", "1".repeat(16)]) {
      expect(() => parseCursor(bad), bad).toThrow(/malformed/);
    }
    let err: unknown;
    try {
      parseCursor("x".repeat(100_000));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConnectError);
    expect((err as ConnectError).code).toBe(3); // invalid_argument
    expect((err as ConnectError).message.length).toBeLessThan(200);
  });
});
