import { describe, expect, it } from "vitest";
import { formatCursor, formatPageToken, parseCursor, parsePageToken } from "./cursor.ts";
import { DomainError } from "./domain-error.ts";

/** What `parse` throws for `text`. */
function refusal(parse: (text: string) => number, text: string): DomainError {
  try {
    parse(text);
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error(`${JSON.stringify(text)} was accepted`);
}

const malformed = ["-1", "1.5", " 1", "1e3", "abc", "1\u0000", "1".repeat(16)];

describe("parseCursor", () => {
  it("reads the empty cursor as the start and digits as a sequence number", () => {
    expect(parseCursor("")).toBe(0);
    expect(parseCursor("42")).toBe(42);
    expect(parseCursor("999999999999999")).toBe(999_999_999_999_999);
  });

  it("refuses anything else as invalid, quoting at most a short prefix", () => {
    for (const bad of malformed) expect(() => parseCursor(bad), bad).toThrow(/malformed/);
    expect(refusal(parseCursor, "x")).toMatchObject({
      code: "invalid",
      field: "cursor",
      message: 'cursor "x" is malformed; pass "" or nextCursor',
    });
    expect(refusal(parseCursor, "x".repeat(100_000)).message.length).toBeLessThan(200);
  });

  it("reads back what formatCursor writes", () => {
    for (const seq of [0, 1, 42, 999_999_999_999_999]) {
      expect(parseCursor(formatCursor(seq))).toBe(seq);
    }
  });
});

describe("parsePageToken", () => {
  it("reads the empty token as the first row and digits as an offset", () => {
    expect(parsePageToken("")).toBe(0);
    expect(parsePageToken("40")).toBe(40);
    expect(parsePageToken(formatPageToken(500))).toBe(500);
  });

  it("refuses anything else as invalid, quoting at most a short prefix", () => {
    for (const bad of malformed) expect(() => parsePageToken(bad), bad).toThrow(/not valid/);
    expect(refusal(parsePageToken, "-5")).toMatchObject({
      code: "invalid",
      field: "page.pageToken",
      message: 'page.pageToken "-5" is not valid; pass back nextPageToken',
    });
    expect(refusal(parsePageToken, "x".repeat(100_000)).message.length).toBeLessThan(200);
  });
});
