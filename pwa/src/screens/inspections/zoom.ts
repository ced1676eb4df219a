/**
 * The zoom and pan of the full-screen photo viewer, as plain numbers (PhotoViewer.tsx applies
 * them as a CSS transform): the photo fits the stage at scale 1, zooms up to `maxZoom` around
 * the point under the fingers (or the centre, for the buttons), and is never panned so far that
 * its edge leaves the stage's edge, so it cannot be lost off screen.
 */

/** Translation in CSS px from the centred position, and the scale (1 = fitted). */
export interface View {
  readonly x: number;
  readonly y: number;
  readonly scale: number;
}

export interface Box {
  readonly width: number;
  readonly height: number;
}

export const fitted: View = { x: 0, y: 0, scale: 1 };
export const maxZoom = 8;
/** One press of + or −. */
export const zoomStep = 1.5;

/** The view with its pan limited: a photo of `image` (fitted size) at `scale` in `stage`. */
export function clampView(view: View, image: Box, stage: Box): View {
  const scale = Math.min(maxZoom, Math.max(1, view.scale));
  const limitX = Math.max(0, (image.width * scale - stage.width) / 2);
  const limitY = Math.max(0, (image.height * scale - stage.height) / 2);
  const clamp = (v: number, limit: number) => Math.min(limit, Math.max(-limit, v)) || 0;
  return { x: clamp(view.x, limitX), y: clamp(view.y, limitY), scale };
}

/**
 * The view zoomed by `factor` keeping the point `at` (stage coordinates from its centre) where
 * it is on screen, then clamped.
 */
export function zoomAt(
  view: View,
  factor: number,
  at: { x: number; y: number },
  image: Box,
  stage: Box,
): View {
  const scale = Math.min(maxZoom, Math.max(1, view.scale * factor));
  const k = scale / view.scale;
  // The photo point under `at` stays under `at`: at = t + s·p before and after.
  return clampView(
    { x: at.x - (at.x - view.x) * k, y: at.y - (at.y - view.y) * k, scale },
    image,
    stage,
  );
}

/** The view moved by (dx, dy) CSS px, clamped. */
export function panBy(view: View, dx: number, dy: number, image: Box, stage: Box): View {
  return clampView({ ...view, x: view.x + dx, y: view.y + dy }, image, stage);
}

/** The size of `natural` fitted (contained) in `stage`, never enlarged. */
export function fittedSize(natural: Box, stage: Box): Box {
  if (natural.width <= 0 || natural.height <= 0) return { width: 0, height: 0 };
  const s = Math.min(1, stage.width / natural.width, stage.height / natural.height);
  return { width: natural.width * s, height: natural.height * s };
}
