import { describe, expect, it } from "vitest";
import {
  dataUrlBytes,
  type Encoder,
  encodeWithinLimit,
  fitsLimit,
  fitWithin,
  maxPhotoBytes,
  PhotoError,
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
  it("scales the long side down to 640 px, keeping the aspect ratio", () => {
    expect(fitWithin({ width: 4032, height: 3024 })).toEqual({ width: 640, height: 480 });
    expect(fitWithin({ width: 3024, height: 4032 })).toEqual({ width: 480, height: 640 });
    expect(fitWithin({ width: 4000, height: 1000 }, 320)).toEqual({ width: 320, height: 80 });
  });

  it("never scales up and never gives a zero side", () => {
    expect(fitWithin({ width: 300, height: 200 })).toEqual({ width: 300, height: 200 });
    expect(fitWithin({ width: 10000, height: 3 })).toEqual({ width: 640, height: 1 });
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

describe("encodeWithinLimit", () => {
  it("takes quality 0.8 at 640 px when it fits (the usual case)", async () => {
    const { encode, calls } = fakeEncoder(() => 0.3);
    const out = await encodeWithinLimit({ width: 4032, height: 3024 }, encode);
    expect(out.quality).toBe(0.8);
    expect(out.size).toEqual({ width: 640, height: 480 });
    expect(calls).toHaveLength(1);
    expect(fitsLimit(out.dataUrl)).toBe(true);
  });

  it("lowers the quality until the photo fits", async () => {
    // 640×480 = 307,200 px: fits 524,288 bytes below 1.7 bytes per pixel.
    const { encode, calls } = fakeEncoder((q) => q * 2.5);
    const out = await encodeWithinLimit({ width: 4032, height: 3024 }, encode);
    expect(calls.map((c) => c.quality)).toEqual([0.8, 0.7, 0.6]);
    expect(out.quality).toBe(0.6);
    expect(out.size).toEqual({ width: 640, height: 480 });
    expect(dataUrlBytes(out.dataUrl)).toBeLessThanOrEqual(maxPhotoBytes);
  });

  it("makes the photo smaller when even the lowest quality does not fit", async () => {
    const { encode, calls } = fakeEncoder(() => 3);
    const out = await encodeWithinLimit({ width: 4032, height: 3024 }, encode);
    expect(out.size).toEqual({ width: 480, height: 360 });
    expect(out.quality).toBe(0.8);
    expect(calls).toHaveLength(7);
  });

  it("fails with PhotoError tooLarge when nothing fits, trying a small image's size once", async () => {
    const { encode, calls } = fakeEncoder(() => 30);
    const err = await encodeWithinLimit({ width: 200, height: 100 }, encode).catch((e) => e);
    expect(err).toBeInstanceOf(PhotoError);
    expect((err as PhotoError).reason).toBe("tooLarge");
    expect(calls).toHaveLength(6);
  });

  it("honours a smaller limit", async () => {
    const { encode } = fakeEncoder((q) => q);
    const out = await encodeWithinLimit({ width: 640, height: 480 }, encode, 200_000);
    expect(dataUrlBytes(out.dataUrl)).toBeLessThanOrEqual(200_000);
    expect(out.quality).toBe(0.6);
  });
});
