import { describe, expect, it } from "vitest";
import { parseColumnValue } from "./column-value.ts";
import type { ColumnSpec } from "./entities.ts";
import { maxPhotoBytes, photoPrefix } from "./entities.ts";

describe("parseColumnValue: a text column with element rules (a single photo)", () => {
  const photo: ColumnSpec = {
    type: "text",
    elementPrefix: photoPrefix,
    elementMaxBytes: maxPhotoBytes,
  };
  const big = (bytes: number): string => photoPrefix + "a".repeat(bytes - photoPrefix.length);

  it("holds a data URL of up to the element size, beyond the 10 000 characters of text", () => {
    expect(parseColumnValue(photo, big(maxPhotoBytes), false)).toEqual({
      value: big(maxPhotoBytes),
    });
    expect(parseColumnValue(photo, big(maxPhotoBytes + 1), false)).toHaveProperty("error");
  });

  it('takes "" as no photo unless the column is required, and refuses other URLs', () => {
    expect(parseColumnValue(photo, "", false)).toEqual({ value: "" });
    expect(parseColumnValue(photo, "", true)).toHaveProperty("error");
    expect(parseColumnValue(photo, "https://example.com/a.jpg", false)).toEqual({
      error: 'must start with "data:image/"',
    });
  });
});
