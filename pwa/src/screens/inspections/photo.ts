/**
 * Photos for inspections, made on the device before they are stored: as large as the contract's
 * 512 KiB allows (up to 2048 px on the long side, so eggs, young larvae and mites can be seen),
 * JPEG, upright as the camera meant it (EXIF orientation). The ladder (`photoLadder`) starts at
 * 2048 px and quality 0.85, steps the quality down, then the size, until the data URL fits.
 * A stored photo is mostly close to the limit: the `photo-sync` figure of `pnpm bench` shows what
 * that does to a first sync and the replica (about 5× the former 640 px photos' bytes).
 *
 * How large photos are is this one setting (`photoLadder`): the heavy-data work decides how
 * photos travel to other devices; until then every stored photo travels in its row.
 *
 * The pure part (sizes, the ladder) is tested with an injected encoder; the browser part decodes
 * with createImageBitmap (an <img> where that fails, e.g. HEIC in Safari) and encodes with an
 * OffscreenCanvas where there is one, a <canvas> otherwise.
 */
import { maxPhotoBytes } from "@hivekeep/client-core/core";

export { maxPhotoBytes };

/**
 * The encodings tried in turn, largest first: each long side (px) with its JPEG qualities. The
 * first that fits the limit is stored. Below 0.6 JPEG smears the detail the large size is for,
 * so a smaller size at a decent quality comes before a large one at a poor quality; the last
 * rungs are for very noisy images.
 */
export const photoLadder: readonly {
  readonly longSide: number;
  readonly qualities: readonly number[];
}[] = [
  { longSide: 2048, qualities: [0.85, 0.75, 0.65, 0.6] },
  { longSide: 1600, qualities: [0.75, 0.65, 0.6] },
  { longSide: 1280, qualities: [0.7, 0.6, 0.5] },
  { longSide: 960, qualities: [0.6, 0.5, 0.4] },
  { longSide: 640, qualities: [0.6, 0.4, 0.3] },
  { longSide: 320, qualities: [0.5, 0.3] },
];

/** The ladder before issue 28 (about 640 px), kept for the benchmark's comparison only. */
export const formerPhotoLadder: typeof photoLadder = [
  { longSide: 640, qualities: [0.8, 0.7, 0.6, 0.5, 0.4, 0.3] },
  { longSide: 480, qualities: [0.8, 0.7, 0.6, 0.5, 0.4, 0.3] },
  { longSide: 320, qualities: [0.8, 0.7, 0.6, 0.5, 0.4, 0.3] },
];

/** The long side of a stored photo at most, in pixels (the ladder's first rung). */
export const photoLongSide = photoLadder[0]?.longSide ?? 2048;

export interface Size {
  readonly width: number;
  readonly height: number;
}

/** Why a file could not become a photo. */
export class PhotoError extends Error {
  constructor(
    readonly reason: "unreadable" | "tooLarge",
    message: string,
  ) {
    super(message);
    this.name = "PhotoError";
  }
}

/** The size scaled down (never up) so its long side is at most `longSide`; whole pixels, ≥ 1. */
export function fitWithin(size: Size, longSide: number = photoLongSide): Size {
  const long = Math.max(size.width, size.height);
  const scale = long > longSide ? longSide / long : 1;
  return {
    width: Math.max(1, Math.round(size.width * scale)),
    height: Math.max(1, Math.round(size.height * scale)),
  };
}

/** Bytes of a data URL as stored (it is ASCII: base64 after the prefix). */
export function dataUrlBytes(dataUrl: string): number {
  return dataUrl.length;
}

/** A data URL the contract accepts: `data:image/…`, at most `limit` bytes. */
export function fitsLimit(dataUrl: string, limit: number = maxPhotoBytes): boolean {
  return dataUrl.startsWith("data:image/") && dataUrlBytes(dataUrl) <= limit;
}

/** Draws the image at a size and encodes it as a data URL at a JPEG quality (0–1). */
export type Encoder = (size: Size, quality: number) => Promise<string>;

/**
 * The first encoding on the ladder that fits the limit: the largest size first, its qualities
 * from high to low, then the next size. Throws PhotoError("tooLarge") when none fits.
 */
export async function encodeWithinLimit(
  natural: Size,
  encode: Encoder,
  limit: number = maxPhotoBytes,
  ladder: typeof photoLadder = photoLadder,
): Promise<{ dataUrl: string; size: Size; quality: number }> {
  const tried = new Set<string>();
  for (const rung of ladder) {
    const size = fitWithin(natural, rung.longSide);
    for (const quality of rung.qualities) {
      // A small image is the same size on several rungs: each encoding is tried once.
      const key = `${size.width}x${size.height}@${quality}`;
      if (tried.has(key)) continue;
      tried.add(key);
      const dataUrl = await encode(size, quality);
      if (fitsLimit(dataUrl, limit)) return { dataUrl, size, quality };
    }
  }
  throw new PhotoError("tooLarge", "the photo does not fit the size limit");
}

// ---- Browser ----

type Drawable = ImageBitmap | HTMLImageElement;

interface Decoded {
  readonly image: Drawable;
  readonly size: Size;
  close(): void;
}

/** Decodes an image file upright (EXIF orientation applied). */
async function decode(file: Blob): Promise<Decoded> {
  if (typeof createImageBitmap === "function") {
    try {
      const bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
      return {
        image: bitmap,
        size: { width: bitmap.width, height: bitmap.height },
        close: () => bitmap.close(),
      };
    } catch {
      // Not decodable this way (or the option is unknown): try an <img> below.
    }
  }
  const url = URL.createObjectURL(file);
  try {
    const img = new Image();
    img.decoding = "async";
    img.src = url;
    await img.decode();
    // An <img> applies the EXIF orientation itself (CSS image-orientation: from-image).
    return {
      image: img,
      size: { width: img.naturalWidth, height: img.naturalHeight },
      close: () => URL.revokeObjectURL(url),
    };
  } catch {
    URL.revokeObjectURL(url);
    throw new PhotoError("unreadable", "the file is not an image this browser can read");
  }
}

function blobToDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("could not read the encoded photo"));
    reader.readAsDataURL(blob);
  });
}

/** An encoder drawing `image` on a canvas (one per size, reused across qualities). */
function canvasEncoder(image: Drawable): Encoder {
  let drawn: { size: Size; toBlob: (quality: number) => Promise<Blob> } | undefined;
  const draw = (size: Size) => {
    const paint = (ctx: OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D) => {
      // JPEG has no transparency: a transparent PNG gets white, not black.
      ctx.fillStyle = "#fff";
      ctx.fillRect(0, 0, size.width, size.height);
      ctx.imageSmoothingEnabled = true;
      ctx.imageSmoothingQuality = "high";
      ctx.drawImage(image, 0, 0, size.width, size.height);
    };
    if (typeof OffscreenCanvas === "function") {
      const canvas = new OffscreenCanvas(size.width, size.height);
      const ctx = canvas.getContext("2d");
      if (ctx) {
        paint(ctx);
        return (quality: number) => canvas.convertToBlob({ type: "image/jpeg", quality });
      }
    }
    const canvas = document.createElement("canvas");
    canvas.width = size.width;
    canvas.height = size.height;
    const ctx = canvas.getContext("2d");
    if (!ctx) throw new PhotoError("unreadable", "this browser cannot draw images");
    paint(ctx);
    return (quality: number) =>
      new Promise<Blob>((resolve, reject) =>
        canvas.toBlob(
          (b) => (b ? resolve(b) : reject(new Error("could not encode the photo"))),
          "image/jpeg",
          quality,
        ),
      );
  };
  return async (size, quality) => {
    if (!drawn || drawn.size.width !== size.width || drawn.size.height !== size.height) {
      drawn = { size, toBlob: draw(size) };
    }
    return blobToDataUrl(await drawn.toBlob(quality));
  };
}

export interface PreparedPhoto {
  /** `data:image/jpeg;base64,…`, within the contract's limit. */
  readonly dataUrl: string;
  readonly width: number;
  readonly height: number;
}

/**
 * A picked or taken image file made into a stored photo: upright, ≤ 2048 px, JPEG, ≤ 512 KiB.
 * `ladder` is for the benchmark, which compares with the former 640 px photos.
 */
export async function preparePhoto(
  file: Blob,
  ladder: typeof photoLadder = photoLadder,
): Promise<PreparedPhoto> {
  const decoded = await decode(file);
  try {
    const { dataUrl, size } = await encodeWithinLimit(
      decoded.size,
      canvasEncoder(decoded.image),
      maxPhotoBytes,
      ladder,
    );
    return { dataUrl, width: size.width, height: size.height };
  } finally {
    decoded.close();
  }
}
