import { describe, expect, it } from "vitest";
import { formatHlc } from "./hlc.ts";
import {
  hasPhotoSets,
  isPhotoRef,
  payloadWithPhotoRefs,
  photoRef,
  samePhoto,
  withoutHeldPhotos,
} from "./photo-ref.ts";

/** A stand-in for SHA-256 (the core takes the hash as an argument): 43 base64url characters. */
const sha256 = (text: string): string => {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h
    .toString(36)
    .padStart(43, "0")
    .replace(/[^A-Za-z0-9_-]/g, "_");
};

const photo = (n: number) => `data:image/jpeg;base64,${"A".repeat(n)}`;

describe("photo references", () => {
  it("names a photo by the SHA-256 of its data URL: the same photo, the same reference", () => {
    const ref = photoRef(photo(10), sha256);
    expect(ref).toBe(`hkphoto:${sha256(photo(10))}`);
    expect(ref).toHaveLength("hkphoto:".length + 43);
    expect(photoRef(photo(10), sha256)).toBe(ref);
    expect(photoRef(photo(11), sha256)).not.toBe(ref);
    expect(isPhotoRef(ref)).toBe(true);
    expect(isPhotoRef(photo(10))).toBe(false);
    expect(isPhotoRef(`${ref}x`)).toBe(false);
    expect(isPhotoRef(`hkphoto:${"+".repeat(43)}`)).toBe(false);
  });

  it("replaces the photos a change adds, keeps its removals, other columns and references", () => {
    const tag = formatHlc({ ms: 1, counter: 0, node: "dev" });
    const ref = photoRef(photo(3), sha256);
    const payload = {
      note: "brood on 6 frames",
      photo_keys: { add: [photo(1), ref], remove: [tag] },
    };
    expect(payloadWithPhotoRefs("inspection", payload, sha256)).toEqual({
      note: "brood on 6 frames",
      photo_keys: { add: [photoRef(photo(1), sha256), ref], remove: [tag] },
    });
    // Inputs are not changed; a payload adding no photo is answered as it is.
    expect(payload.photo_keys.add[0]).toBe(photo(1));
    const removal = { photo_keys: { remove: [tag] } };
    expect(payloadWithPhotoRefs("inspection", removal, sha256)).toBe(removal);
    const hive = { name: "Linde", photo: photo(2) };
    expect(payloadWithPhotoRefs("hive", hive, sha256)).toBe(hive);
  });

  it("knows which entities hold photo sets", () => {
    expect(hasPhotoSets("inspection")).toBe(true);
    expect(hasPhotoSets("hive")).toBe(false);
    expect(hasPhotoSets("event")).toBe(false);
  });
});

describe("a replica holding photos in full and by reference", () => {
  const tag = formatHlc({ ms: 5, counter: 0, node: "dev-a" });
  const other = formatHlc({ ms: 6, counter: 0, node: "dev-b" });
  const [p, q] = [photo(1), photo(2)];

  it("knows a photo and its reference as the same photo", () => {
    expect(samePhoto(p, p, sha256)).toBe(true);
    expect(samePhoto(p, photoRef(p, sha256), sha256)).toBe(true);
    expect(samePhoto(photoRef(p, sha256), p, sha256)).toBe(true);
    expect(samePhoto(photoRef(p, sha256), photoRef(p, sha256), sha256)).toBe(true);
    expect(samePhoto(p, q, sha256)).toBe(false);
    expect(samePhoto(p, photoRef(q, sha256), sha256)).toBe(false);
    expect(samePhoto(photoRef(p, sha256), photoRef(q, sha256), sha256)).toBe(false);
  });

  it("drops from a pulled change the photos the row holds in full under the change's tag", () => {
    const held = { photo_keys: { adds: [{ tag, value: p }], removed: [] } };
    const echo = {
      entity: "inspection" as const,
      hlc: tag,
      payload: { photo_keys: { add: [photoRef(p, sha256), photoRef(q, sha256)] } },
    };
    expect(withoutHeldPhotos(echo, held, sha256).payload).toEqual({
      photo_keys: { add: [photoRef(q, sha256)] },
    });
    const only = { ...echo, payload: { note: "x", photo_keys: { add: [photoRef(p, sha256)] } } };
    expect(withoutHeldPhotos(only, held, sha256).payload).toEqual({ note: "x" });
    // Another change's tag (another device added the same photo): taken in full, so the set
    // lists the photo once, as the server's does; a photo the row does not hold stays a reference.
    const another = { ...echo, hlc: other };
    expect(withoutHeldPhotos(another, held, sha256).payload).toEqual({
      photo_keys: { add: [p, photoRef(q, sha256)] },
    });
    const unrelated = {
      ...echo,
      hlc: other,
      payload: { photo_keys: { add: [photoRef(q, sha256)] } },
    };
    expect(withoutHeldPhotos(unrelated, held, sha256)).toBe(unrelated);
    // A row that holds the reference, or no row: the change as it came.
    const byRef = { photo_keys: { adds: [{ tag, value: photoRef(p, sha256) }], removed: [] } };
    expect(withoutHeldPhotos(echo, byRef, sha256)).toBe(echo);
    expect(withoutHeldPhotos(echo, undefined, sha256)).toBe(echo);
  });
});
