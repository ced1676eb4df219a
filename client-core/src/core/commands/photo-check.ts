/**
 * The photo rule (contract §4.4.2): a data URL starting with `data:image/`,
 * at most 512 KiB in UTF-8 including the prefix. It is the element rule of
 * the photo columns in the registry (`inspection.photo_keys`, `hive.photo`),
 * checked by the same code as a pushed photo, so the limit lives in one place.
 */
import { parseColumnValue } from "../column-value.ts";
import { invalid } from "../domain-error.ts";
import { type ColumnSpec, maxPhotoBytes, photoPrefix } from "../entities.ts";

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
