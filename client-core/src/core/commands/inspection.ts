/**
 * Inspection commands (contract §4.4). An inspection freezes the hive's
 * apiary and reigning queen as of its date and records an INSPECTION event.
 * Only hiveId is required: hive scales and climate trackers send measurement
 * fields alone. Photos live in the OR-set column `photo_keys`: an add is
 * tagged with its change's HLC, a removal names the tags it observed
 * (or-set.ts), so concurrent edits from devices merge without loss.
 */
import type { Stores, Temperament } from "@hivekeep/proto";
import type { Change } from "../change.ts";
import { invalid, notFound } from "../domain-error.ts";
import { columnSpec, entities } from "../entities.ts";
import { checkHappened } from "../happened.ts";
import type { OrSetState } from "../or-set.ts";
import { photoTags } from "../photo-ref.ts";
import { upsert } from "./change-builders.ts";
import type { CommandContext } from "./context.ts";
import {
  EventType,
  type HiveAsOf,
  type HiveRecordState,
  recordOfHive,
  refrozen,
  removeRecordOfHive,
  rewriteRecordOfHive,
} from "./event.ts";
import { checkedPayload } from "./payload-check.ts";
import { checkPhoto, checkPhotoCount } from "./photo-check.ts";

/** The stock-card and measurement fields; all optional (0, false or ""). */
export interface InspectionFields {
  readonly note: string;
  readonly weightKg: number;
  readonly tempHive: number;
  readonly tempOutside: number;
  readonly humidityHive: number;
  readonly humidityOutside: number;
  readonly weather: string;
  readonly queenSeen: boolean;
  readonly eggsSeen: boolean;
  readonly coveredLarva: boolean;
  readonly frames: number;
  readonly broodFrames: number;
  readonly stores: Stores;
  readonly temperament: Temperament;
  readonly calmness: number;
  readonly queenCells: number;
  readonly varroa: string;
  readonly superAdded: boolean;
}

export interface CreateInspectionInput extends InspectionFields {
  readonly hiveId: string;
  /** RFC 3339; the caller defaults it to now (it also reads the hive as of it). */
  readonly date: string;
  /** The new inspection's id; a fresh one when left out (a scale reading's key derives it). */
  readonly id?: string;
}

/** The hive as of the inspection's date. */
export type InspectionHive = HiveAsOf;

/** What the photo commands need to know of a stored inspection. */
export interface InspectionState {
  readonly id: string;
  readonly scopeId: string;
  readonly photoKeys: OrSetState;
}

/**
 * The registry's column rules (counts and measurements within their ranges, as Push checks) and
 * the date of something that happened (not in the future); `prefix` names the request message.
 */
function inspectionColumns(
  ctx: CommandContext,
  input: InspectionFields & { date: string },
  prefix: string,
) {
  const fields = checkedPayload(
    entities.inspection,
    {
      date: input.date,
      note: input.note,
      weight_kg: input.weightKg,
      temp_hive: input.tempHive,
      temp_outside: input.tempOutside,
      humidity_hive: input.humidityHive,
      humidity_outside: input.humidityOutside,
      weather: input.weather,
      queen_seen: input.queenSeen,
      eggs_seen: input.eggsSeen,
      covered_larva: input.coveredLarva,
      frames: input.frames,
      brood_frames: input.broodFrames,
      stores: input.stores,
      temperament: input.temperament,
      calmness: input.calmness,
      queen_cells: input.queenCells,
      varroa: input.varroa,
      super_added: input.superAdded,
    },
    prefix,
  );
  checkHappened(`${prefix}date`, fields.date as string, ctx.now);
  return fields;
}

/**
 * @param hive the hive as of input.date, or undefined when it does not exist
 *   (live) in the tenant (→ not_found).
 */
export function createInspection(
  ctx: CommandContext,
  hive: InspectionHive | undefined,
  input: CreateInspectionInput,
): { id: string; changes: Change[] } {
  if (input.hiveId.trim() === "") throw invalid("hiveId", "hiveId is required");
  const fields = inspectionColumns(ctx, input, "");
  if (hive === undefined) throw notFound("hive", input.hiveId);
  return recordOfHive(
    ctx,
    "inspection",
    hive,
    fields,
    {
      type: EventType.INSPECTION,
      date: fields.date as string,
      title: "Inspection",
    },
    input.id,
  );
}

/**
 * Adds a photo. Adding a photo that is already stored changes nothing (no
 * change, so no second 512 KiB copy in the row and the feed).
 */
export function addInspectionPhoto(
  ctx: CommandContext,
  current: InspectionState | undefined,
  inspectionId: string,
  photo: string,
): Change[] {
  const value = checkPhoto("photo", photo);
  if (current === undefined) throw notFound("inspection", inspectionId);
  if (photoTags(current.photoKeys, value, ctx.photoHash).length > 0) return [];
  const patch = { add: [value] };
  const change = upsert(ctx, "inspection", current.id, current.scopeId, { photo_keys: patch });
  checkPhotoCount("photo", current.photoKeys, patch, change.hlc);
  return [change];
}

/**
 * Removes every stored copy of a photo (all its live tags). Removing a photo
 * that is not stored is a successful no-op, so a retried removal succeeds.
 * A patch names at most `maxElements` tags (what Push takes): a photo stored
 * more often than that (a set written before the cap counted copies) is removed
 * by several changes.
 */
export function removeInspectionPhoto(
  ctx: CommandContext,
  current: InspectionState | undefined,
  inspectionId: string,
  photo: string,
): Change[] {
  if (photo === "") throw invalid("photo", "photo is required");
  if (current === undefined) throw notFound("inspection", inspectionId);
  const tags = photoTags(current.photoKeys, photo, ctx.photoHash);
  const most = columnSpec("inspection", "photo_keys").maxElements ?? tags.length;
  const changes: Change[] = [];
  for (let i = 0; i < tags.length; i += most) {
    const remove = tags.slice(i, i + most);
    changes.push(
      upsert(ctx, "inspection", current.id, current.scopeId, { photo_keys: { remove } }),
    );
  }
  return changes;
}

export interface UpdateInspectionInput extends InspectionFields {
  readonly id: string;
  /** RFC 3339; the caller defaults a left-out date to now, as on create. */
  readonly date: string;
}

/**
 * Overwrites the fields of the message (a field left out takes its default, as on create) but
 * hive_id (never changes: a different one is ignored), apiary_id and queen_id (frozen as of the
 * date: recomputed when the date changes), created_at and photo_keys (the photo operations').
 * The INSPECTION event follows (rewriteRecordOfHive).
 *
 * @param input the request's inspection message; undefined when missing (→ invalid).
 * @param current the stored inspection, or undefined when it does not exist (→ not_found).
 * @param asOf the inspection's hive as of input.date (undefined when the hive is gone).
 */
export function updateInspection(
  ctx: CommandContext,
  current: HiveRecordState | undefined,
  asOf: InspectionHive | undefined,
  input: UpdateInspectionInput | undefined,
): Change[] {
  if (input === undefined) throw invalid("inspection", "inspection is required");
  const fields = inspectionColumns(ctx, input, "inspection.");
  if (current === undefined) throw notFound("inspection", input.id);
  const date = fields.date as string;
  return rewriteRecordOfHive(ctx, "inspection", current, refrozen(current, date, asOf), fields, {
    type: EventType.INSPECTION,
    date,
    title: "Inspection",
  });
}

/** Tombstones the inspection and its INSPECTION events, so no list or timeline shows it. */
export function deleteInspection(
  ctx: CommandContext,
  current: HiveRecordState | undefined,
  id: string,
): Change[] {
  if (current === undefined) throw notFound("inspection", id);
  return removeRecordOfHive(ctx, "inspection", current);
}
