import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isStorableText, utf8ByteLength } from "./utf8.ts";

describe("utf8ByteLength", () => {
  it("counts 1 to 4 bytes per code point", () => {
    expect(utf8ByteLength("")).toBe(0);
    expect(utf8ByteLength("a")).toBe(1);
    expect(utf8ByteLength("é")).toBe(2);
    expect(utf8ByteLength("€")).toBe(3);
    expect(utf8ByteLength("🐝")).toBe(4);
  });

  it("agrees with TextEncoder on any well-formed string", () => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (s) => {
        fc.pre(isStorableText(s));
        expect(utf8ByteLength(s)).toBe(encoder.encode(s).length);
      }),
    );
  });
});

describe("isStorableText", () => {
  it("accepts surrogate pairs and refuses lone surrogates and U+0000", () => {
    expect(isStorableText("bee 🐝")).toBe(true);
    expect(isStorableText("\ud83d")).toBe(false);
    expect(isStorableText("\udc1d")).toBe(false);
    expect(isStorableText("a\ud83da")).toBe(false);
    expect(isStorableText("a\u0000b")).toBe(false);
  });
});
