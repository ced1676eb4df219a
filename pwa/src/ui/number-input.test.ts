import { describe, expect, it } from "vitest";
import { numberInputText, parseNumberInput } from "./forms.tsx";

describe("number fields", () => {
  it("show a value with the locale's decimal separator and no grouping", () => {
    expect(numberInputText(47.99, "de-DE")).toBe("47,99");
    expect(numberInputText(47.99, "en-GB")).toBe("47.99");
    expect(numberInputText(12345.5, "de-DE")).toBe("12345,5");
    expect(numberInputText(-7.123456, "de-CH")).toMatch(/^-7[.,]123456$/);
    expect(numberInputText(20, "de-DE")).toBe("20");
    expect(numberInputText(undefined, "de-DE")).toBe("");
  });

  it("read a decimal comma or point, and shown values back", () => {
    expect(parseNumberInput("48,137")).toBe(48.137);
    expect(parseNumberInput(" 48.137 ")).toBe(48.137);
    expect(parseNumberInput("")).toBeUndefined();
    expect(parseNumberInput("abc")).toBeUndefined();
    for (const v of [47.99, -0.5, 1234.25]) {
      expect(parseNumberInput(numberInputText(v, "de-DE"))).toBe(v);
    }
  });
});
