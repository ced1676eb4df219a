import { describe, expect, it } from "vitest";
import {
  dataUrlBytes,
  type Encoder,
  encodeWithinLimit,
  fitsLimit,
  fitWithin,
  maxPhotoBytes,
  PhotoError,
  photoLadder,
  photoLongSide,
  type Size,
} from "./photo.ts";

/** A fake encoder: the data URL's size grows with the pixels and the quality. */
function fakeEncoder(bytesPerPixelAtQuality: (q: number) => number) {
  const calls: { size: Size; quality: number }[] = [];
  const encode: Encoder = async (size, quality) => {
    calls.push({ size, quality });
    const bytes = Math.round(size.width * size.height * bytesPerPixelAtQuality(quality));
    const prefix = "data:image/jpeg;base64,";
    return prefix + "A".repeat(Math.max(0, bytes - prefix.length));
  };
  return { encode, calls };
}

describe("fitWithin", () => {
  it("scales the long side down to the largest stored size, keeping the aspect ratio", () => {
    expect(photoLongSide).toBe(2048);
    expect(fitWithin({ width: 4032, height: 3024 })).toEqual({ width: 2048, height: 1536 });
    expect(fitWithin({ width: 3024, height: 4032 })).toEqual({ width: 1536, height: 2048 });
    expect(fitWithin({ width: 4000, height: 1000 }, 320)).toEqual({ width: 320, height: 80 });
  });

  it("never scales up and never gives a zero side", () => {
    expect(fitWithin({ width: 300, height: 200 })).toEqual({ width: 300, height: 200 });
    expect(fitWithin({ width: 10000, height: 3 })).toEqual({ width: 2048, height: 1 });
  });
});

describe("fitsLimit", () => {
  it("accepts a data:image/ URL of at most 512 KiB including the prefix", () => {
    const prefix = "data:image/jpeg;base64,";
    const exact = prefix + "A".repeat(maxPhotoBytes - prefix.length);
    expect(dataUrlBytes(exact)).toBe(512 * 1024);
    expect(fitsLimit(exact)).toBe(true);
    expect(fitsLimit(`${exact}A`)).toBe(false);
    expect(fitsLimit("data:text/plain;base64,AAAA")).toBe(false);
  });
});

describe("photoLadder", () => {
  it("goes from the largest size down, each size's qualities from high to low", () => {
    const sides = photoLadder.map((r) => r.longSide);
    expect(sides).toEqual([...sides].sort((a, b) => b - a));
    for (const rung of photoLadder) {
      expect(rung.qualities).toEqual([...rung.qualities].sort((a, b) => b - a));
    }
  });
});

describe("encodeWithinLimit", () => {
  it("takes the top quality at 2048 px when it fits (the usual case)", async () => {
    // 2048×1536 = 3,145,728 px at 0.1 bytes per pixel: about 315 KB.
    const { encode, calls } = fakeEncoder(() => 0.1);
    const out = await encodeWithinLimit({ width: 4032, height: 3024 }, encode);
    expect(out.quality).toBe(0.85);
    expect(out.size).toEqual({ width: 2048, height: 1536 });
    expect(calls).toHaveLength(1);
    expect(fitsLimit(out.dataUrl)).toBe(true);
  });

  it("lowers the quality at 2048 px until the photo fits", async () => {
    // Fits 524,288 bytes below 0.1667 bytes per pixel: 0.65 × 0.25 = 0.1625.
    const { encode, calls } = fakeEncoder((q) => q * 0.25);
    const out = await encodeWithinLimit({ width: 4032, height: 3024 }, encode);
    expect(calls.map((c) => c.quality)).toEqual([0.85, 0.75, 0.65]);
    expect(out.quality).toBe(0.65);
    expect(out.size).toEqual({ width: 2048, height: 1536 });
    expect(dataUrlBytes(out.dataUrl)).toBeLessThanOrEqual(maxPhotoBytes);
  });

  it("makes the photo smaller when the lowest quality at a size does not fit", async () => {
    // 1600×1200 = 1,920,000 px fits below 0.273 bytes per pixel; 2048 px never does at 0.3.
    const { encode, calls } = fakeEncoder(() => 0.3);
    const out = await encodeWithinLimit({ width: 4032, height: 3024 }, encode);
    expect(calls.map((c) => `${c.size.width}@${c.quality}`)).toEqual([
      "2048@0.85",
      "2048@0.75",
      "2048@0.65",
      "2048@0.6",
      "1600@0.75",
      "1600@0.65",
      "1600@0.6",
      "1280@0.7",
    ]);
    expect(out.size).toEqual({ width: 1280, height: 960 });
    expect(out.quality).toBe(0.7);
  });

  it("fails with PhotoError tooLarge when nothing fits, trying each encoding of a small image once", async () => {
    const { encode, calls } = fakeEncoder(() => 30);
    const err = await encodeWithinLimit({ width: 200, height: 100 }, encode).catch((e) => e);
    expect(err).toBeInstanceOf(PhotoError);
    expect((err as PhotoError).reason).toBe("tooLarge");
    // The distinct qualities of the whole ladder, all at 200×100.
    const qualities = new Set(photoLadder.flatMap((r) => r.qualities));
    expect(calls).toHaveLength(qualities.size);
    expect(calls.every((c) => c.size.width === 200 && c.size.height === 100)).toBe(true);
  });

  it("honours a smaller limit", async () => {
    const { encode } = fakeEncoder((q) => q);
    const out = await encodeWithinLimit({ width: 640, height: 480 }, encode, 200_000);
    expect(dataUrlBytes(out.dataUrl)).toBeLessThanOrEqual(200_000);
    // 640×480 at q bytes per pixel fits 200,000 bytes from 0.65 down.
    expect(out.size).toEqual({ width: 640, height: 480 });
    expect(out.quality).toBe(0.65);
  });
});
