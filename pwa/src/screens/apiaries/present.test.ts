import { describe, expect, it } from "vitest";
import { hasCoords, mapUrl } from "./present.ts";

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
});
