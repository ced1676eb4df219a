import { describe, expect, it } from "vitest";
import { makeFormat } from "../../format.ts";
import { coordsText, hasCoords, mapUrl } from "./present.ts";

describe("an apiary's place", () => {
  const lindenhof = { lat: 47.99, lng: 7.84 };

  it("has coordinates unless both are 0 (none given)", () => {
    expect(hasCoords(lindenhof)).toBe(true);
    expect(hasCoords({ lat: 0, lng: 7.84 })).toBe(true);
    expect(hasCoords({ lat: 0, lng: 0 })).toBe(false);
  });

  it("links to the marked place on OpenStreetMap", () => {
    expect(mapUrl(lindenhof)).toBe(
      "https://www.openstreetmap.org/?mlat=47.99&mlon=7.84#map=16/47.99/7.84",
    );
  });

  it("writes the coordinates to five places in the language's numbers", () => {
    const place = { lat: 47.9912345, lng: -7.5 };
    expect(coordsText(makeFormat("en-GB"), place)).toBe("(47.99123, -7.5)");
    expect(coordsText(makeFormat("de-DE"), place)).toBe("(47,99123, -7,5)");
  });
});
