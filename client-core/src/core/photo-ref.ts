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
import type { Values } from "./merge.ts";
import type { OrSetPatch } from "./or-set.ts";

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
