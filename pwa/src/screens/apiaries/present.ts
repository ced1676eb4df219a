/** Where an apiary is, as its page shows it: whether it has coordinates, and the map link. */
import type { Apiary } from "@hivekeep/proto";

/** Coordinates 0, 0 mean none were given (a form leaves them empty). */
export function hasCoords(a: Pick<Apiary, "lat" | "lng">): boolean {
  return a.lat !== 0 || a.lng !== 0;
}

/** The place on OpenStreetMap, marked and zoomed to a street. */
export function mapUrl(a: Pick<Apiary, "lat" | "lng">): string {
  return `https://www.openstreetmap.org/?mlat=${a.lat}&mlon=${a.lng}#map=16/${a.lat}/${a.lng}`;
}
