/**
 * The photo rule (contract §4.4.2): a data URL starting with `data:image/`,
 * at most 512 KiB in UTF-8 including the prefix. It is the element rule of
 * the photo columns in the registry (`inspection.photo_keys`, `hive.photo`),
 * checked by the same code as a pushed photo, so the limit lives in one place.
 * An inspection holds at most 20 photos (`maxElements` of `inspection.photo_keys`),
 * by the rule Push applies too (column-value.ts orSetPatchError).
 */
import { orSetPatchError, parseColumnValue } from "../column-value.ts";
import { invalid } from "../domain-error.ts";
import { type ColumnSpec, columnSpec, maxPhotoBytes, photoPrefix } from "../entities.ts";
import type { Hlc } from "../hlc.ts";
import type { OrSetPatch, OrSetState } from "../or-set.ts";

const photoSpec: ColumnSpec = {
  type: "text",
  elementPrefix: photoPrefix,
  elementMaxBytes: maxPhotoBytes,
};

/** The photo, or invalid(field) when it is empty, not a data:image/ URL or too large. */
export function checkPhoto(field: string, photo: string): string {
  if (photo === "") throw invalid(field, `${field} is required`);
  const parsed = parseColumnValue(photoSpec, photo, true);
  if ("error" in parsed) throw invalid(field, `${field} ${parsed.error}`);
  return photo;
}

/**
 * Throws invalid(field) when the patch of the change stamped `tag` (an add of one photo) would
 * make the inspection hold too many photos.
 */
export function checkPhotoCount(
  field: string,
  photoKeys: OrSetState,
  patch: OrSetPatch,
  tag: Hlc,
): void {
  const spec = columnSpec("inspection", "photo_keys");
  if (orSetPatchError(spec, photoKeys, patch, tag) !== undefined) {
    throw invalid(
      field,
      `${field} cannot be added: an inspection holds at most ${spec.maxElements} photos; remove one first`,
    );
  }
}
