/**
 * Small thumbnails of stored photos, made on the device when a list shows them. A stored photo is
 * up to 2048 px (photo.ts): shown as an <img> in a grid, each would be decoded at full size,
 * about 12 MB of pixels apiece, so an inspection's 20 photos would hold some 250 MB on a phone.
 * A thumbnail is decoded to `thumbnailWidth` wide (createImageBitmap's resize, one photo
 * at a time), encoded as a small JPEG blob and kept under a blob: URL (the CSP allows blob:
 * images), about 30 KB of pixels each. Where the browser cannot do this, the photo itself is shown.
 *
 * The cache is shared by every list and bounded (`maxCached`, oldest out first), so it never
 * grows with the number of photos seen.
 */
import { useEffect, useState } from "react";

/** The width of a thumbnail in pixels: a grid cell is at most about 11rem, at 2× density. */
export const thumbnailWidth = 360;
/** How many thumbnails are kept; each is a few KB of blob. */
const maxCached = 120;

const cache = new Map<string, Promise<string>>();
/** Thumbnails are made one after another: decoding several large photos at once costs memory. */
let queue: Promise<unknown> = Promise.resolve();

function dataUrlToBlob(dataUrl: string): Blob {
  const comma = dataUrl.indexOf(",");
  const mime = /^data:([^;,]+)/.exec(dataUrl)?.[1] ?? "image/jpeg";
  const bytes = Uint8Array.from(atob(dataUrl.slice(comma + 1)), (c) => c.charCodeAt(0));
  return new Blob([bytes], { type: mime });
}

async function makeThumbnail(dataUrl: string): Promise<string> {
  if (
    typeof createImageBitmap !== "function" ||
    typeof OffscreenCanvas !== "function" ||
    !dataUrl.includes(";base64,")
  ) {
    return dataUrl;
  }
  // Only the width is given: the browser keeps the aspect ratio. A grid cell crops to a square,
  // so a landscape thumbnail is a little softer than a portrait one; both are sharp enough.
  const small = await createImageBitmap(dataUrlToBlob(dataUrl), {
    resizeWidth: thumbnailWidth,
    resizeQuality: "medium",
  });
  const { width, height } = small;
  try {
    const canvas = new OffscreenCanvas(width, height);
    const ctx = canvas.getContext("2d");
    if (!ctx) return dataUrl;
    ctx.drawImage(small, 0, 0);
    const out = await canvas.convertToBlob({ type: "image/jpeg", quality: 0.8 });
    return URL.createObjectURL(out);
  } finally {
    small.close();
  }
}

/** The thumbnail's URL for a stored photo (made once, then from the cache). */
export function thumbnailUrl(dataUrl: string): Promise<string> {
  const known = cache.get(dataUrl);
  if (known) {
    // Most recently used last: the oldest leave first.
    cache.delete(dataUrl);
    cache.set(dataUrl, known);
    return known;
  }
  const made = queue.then(() => makeThumbnail(dataUrl)).catch(() => dataUrl);
  queue = made;
  cache.set(dataUrl, made);
  while (cache.size > maxCached) {
    const [oldest, url] = cache.entries().next().value as [string, Promise<string>];
    cache.delete(oldest);
    void url.then((u) => {
      if (u.startsWith("blob:")) URL.revokeObjectURL(u);
    });
  }
  return made;
}

/** The thumbnail's URL once made; undefined until then (the cell shows its background). */
export function useThumbnail(dataUrl: string | undefined): string | undefined {
  const [url, setUrl] = useState<{ of: string; url: string } | undefined>();
  useEffect(() => {
    if (dataUrl === undefined) return;
    let live = true;
    void thumbnailUrl(dataUrl).then((u) => {
      if (live) setUrl({ of: dataUrl, url: u });
    });
    return () => {
      live = false;
    };
  }, [dataUrl]);
  return dataUrl !== undefined && url?.of === dataUrl ? url.url : undefined;
}
