import { describe, expect, it } from "vitest";
import { clampView, fitted, fittedSize, maxZoom, panBy, zoomAt } from "./zoom.ts";

const stage = { width: 400, height: 800 };
const image = { width: 400, height: 300 };

describe("zoomAt", () => {
  it("keeps the point under the fingers where it is", () => {
    const at = { x: 100, y: 50 };
    const v = zoomAt(fitted, 2, at, image, stage);
    expect(v.scale).toBe(2);
    // The photo point p under `at` (p = at at scale 1) is on screen at t + 2p after.
    expect(v.x + 2 * at.x).toBe(at.x);
    expect(v).toEqual({ x: -100, y: 0, scale: 2 });
  });

  it("never goes below fitted nor above the most zoom", () => {
    expect(zoomAt(fitted, 0.5, { x: 0, y: 0 }, image, stage)).toEqual(fitted);
    const far = zoomAt(fitted, 100, { x: 0, y: 0 }, image, stage);
    expect(far.scale).toBe(maxZoom);
  });

  it("back to fitted is centred again", () => {
    const v = zoomAt(fitted, 3, { x: 150, y: 0 }, image, stage);
    expect(zoomAt(v, 1 / 3, { x: -150, y: 0 }, image, stage)).toEqual(fitted);
  });
});

describe("panBy and clampView", () => {
  it("pans within the zoomed photo's overhang only", () => {
    const v = { x: 0, y: 0, scale: 2 };
    // 800×600 on a 400×800 stage: 200 px to spare each side, none vertically.
    expect(panBy(v, 1000, 1000, image, stage)).toEqual({ x: 200, y: 0, scale: 2 });
    expect(panBy(v, -50, 0, image, stage)).toEqual({ x: -50, y: 0, scale: 2 });
  });

  it("does not pan a fitted photo", () => {
    expect(panBy(fitted, 30, 30, image, stage)).toEqual(fitted);
    expect(clampView({ x: 5, y: 5, scale: 0.2 }, image, stage)).toEqual(fitted);
  });
});

describe("fittedSize", () => {
  it("contains the photo in the stage and never enlarges it", () => {
    expect(fittedSize({ width: 2048, height: 1536 }, stage)).toEqual({ width: 400, height: 300 });
    expect(fittedSize({ width: 200, height: 100 }, stage)).toEqual({ width: 200, height: 100 });
  });
});
