import { describe, expect, it } from "vitest";
import { maxTextLength } from "../column-value.ts";
import { isStorableText } from "../utf8.ts";
import { eventTitle } from "./event.ts";

describe("eventTitle", () => {
  it("keeps a title within the text limit and cuts a longer one, ending in …", () => {
    const exact = "x".repeat(maxTextLength);
    expect(eventTitle(exact)).toBe(exact);
    const cut = eventTitle(`Hive ${exact} moved to ${exact}`);
    expect(cut).toHaveLength(maxTextLength);
    expect(cut.endsWith("x…")).toBe(true);
  });

  it("never cuts inside a surrogate pair", () => {
    const bees = "🐝".repeat(maxTextLength);
    const cut = eventTitle(bees);
    expect(isStorableText(cut)).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(maxTextLength);
  });
});
