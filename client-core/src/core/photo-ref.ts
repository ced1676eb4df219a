/**
 * Photos by reference (docs/sync-spec.md, "Photos by reference"; issue 29). A device that asks
 * Pull for `photoRefs` receives each photo an inspection's `photo_keys` adds as a reference to
 * it instead of the photo itself, and fetches the photo (SyncService.GetPhoto) when it is shown.
 * A first sync then downloads no photo: an inspection's 20 photos of up to 512 KiB are 20 refs
 * of 52 bytes.
 *
 * A reference is `hkphoto:` and the SHA-256 of the photo's data URL (its UTF-8), base64url: the
 * same photo gives the same reference wherever it is computed (the server's Pull, a device that
 * turns its own acknowledged photos into references), so the OR-set, which lists an element once
 * by value, lists it once on every replica. It names content, not a place, so a server may keep
 * photos anywhere without changing what devices hold.
 *
 * The hash function is passed in (node:crypto on the server; the device's own), so this file
 * stays free of Node and DOM.
 */
import type { EntityName } from "./entities.ts";
import { entities } from "./entities.ts";
import type { Hlc } from "./hlc.ts";
import type { Values } from "./merge.ts";
import { type OrSetPatch, type OrSetState, orSetTags } from "./or-set.ts";

/** SHA-256 of the UTF-8 of `text`, base64url without padding (43 characters). */
export type PhotoHash = (text: string) => string;

export const photoRefPrefix = "hkphoto:";

/** A reference is the prefix and 43 base64url characters. */
const refPattern = /^hkphoto:[A-Za-z0-9_-]{43}$/;

export const isPhotoRef = (value: string): boolean => refPattern.test(value);

/** The reference of a photo (a data URL). */
export const photoRef = (dataUrl: string, hash: PhotoHash): string =>
  `${photoRefPrefix}${hash(dataUrl)}`;

/**
 * The OR-set columns whose elements travel by reference: those holding photos (elements with
 * the `data:image/` prefix). A hive's single `photo` (a text column) travels as it is.
 */
function photoSetColumns(entity: EntityName): string[] {
  return Object.entries(entities[entity].columns).flatMap(([column, spec]) =>
    spec.type === "orset" && spec.elementPrefix !== undefined ? [column] : [],
  );
}

const photoColumnsByEntity = new Map<EntityName, readonly string[]>();

const photoColumns = (entity: EntityName): readonly string[] => {
  let columns = photoColumnsByEntity.get(entity);
  if (columns === undefined) {
    columns = photoSetColumns(entity);
    photoColumnsByEntity.set(entity, columns);
  }
  return columns;
};

/** `entity` has a column whose photos travel by reference. */
export const hasPhotoSets = (entity: EntityName): boolean => photoColumns(entity).length > 0;

/**
 * A change's payload with every photo it adds replaced by its reference (removals name tags and
 * stay); the same object when it adds none. References already in it stay as they are.
 */
export function payloadWithPhotoRefs(entity: EntityName, payload: Values, hash: PhotoHash): Values {
  let out: Values | undefined;
  for (const column of photoColumns(entity)) {
    const patch = payload[column] as OrSetPatch | undefined;
    if (patch?.add === undefined || patch.add.length === 0) continue;
    out ??= { ...payload };
    out[column] = {
      ...patch,
      add: patch.add.map((value) => (isPhotoRef(value) ? value : photoRef(value, hash))),
    };
  }
  return out ?? payload;
}

/**
 * The same photo: equal values, or a photo and its reference. A replica holds a photo it added
 * itself in full and one pulled by reference; the photo operations compare with this.
 */
export function samePhoto(a: string, b: string, hash: PhotoHash): boolean {
  if (a === b) return true;
  const aRef = isPhotoRef(a);
  if (aRef === isPhotoRef(b)) return false;
  return aRef ? photoRef(b, hash) === a : photoRef(a, hash) === b;
}

/**
 * The live tags of `photo` in a set: of the adds of that photo, in full or by reference when
 * `hash` is given (a device), else of exactly that value (the server holds photos only).
 */
export function photoTags(state: OrSetState, photo: string, hash: PhotoHash | undefined): Hlc[] {
  if (hash === undefined) return orSetTags(state, photo);
  return state.adds.filter((a) => samePhoto(a.value, photo, hash)).map((a) => a.tag);
}

/**
 * A pulled change as the row's photos make it: a photo added by reference that the row already
 * holds in full is dropped when it is under the change's own tag (the device's own photo coming
 * back: its echo, or a page pulled again; joined as it came, the set would hold the photo twice
 * under one tag), and taken in full when under another tag (another device added the same photo:
 * the set then holds it twice in full, as the server does, and lists it once). The same object
 * when nothing changes.
 */
export function withoutHeldPhotos<C extends { entity: EntityName; hlc: string; payload: Values }>(
  change: C,
  held: Values | undefined,
  hash: PhotoHash,
): C {
  let payload: Values | undefined;
  for (const column of photoColumns(change.entity)) {
    const patch = change.payload[column] as OrSetPatch | undefined;
    const set = held?.[column] as OrSetState | undefined;
    if (!patch?.add?.some(isPhotoRef) || set === undefined) continue;
    const full = set.adds.filter((a) => !isPhotoRef(a.value));
    if (full.length === 0) continue;
    const byRef = new Map<string, { value: string; own: boolean }>();
    for (const a of full) {
      const ref = photoRef(a.value, hash);
      const own = a.tag === change.hlc || byRef.get(ref)?.own === true;
      byRef.set(ref, { value: a.value, own });
    }
    let changed = false;
    const add = patch.add.flatMap((value) => {
      const known = byRef.get(value);
      if (known === undefined) return [value];
      changed = true;
      return known.own ? [] : [known.value];
    });
    if (!changed) continue;
    payload ??= { ...change.payload };
    if (add.length > 0) payload[column] = { ...patch, add };
    else if (patch.remove?.length) payload[column] = { remove: patch.remove };
    else delete payload[column];
  }
  return payload === undefined ? change : { ...change, payload };
}
