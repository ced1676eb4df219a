/**
 * Hive commands. A hive stands at one apiary at a time; each stay is a
 * placement (started_at … ended_at, open while ended_at is null), which only
 * travels in the change feed. CreateHive opens the first placement and
 * records a CREATED event.
 */
import { HiveStatus, type HiveType } from "@hivekeep/proto";
import type { Change } from "../change.ts";
import { invalid, notFound } from "../domain-error.ts";
import { upsert } from "./change-builders.ts";
import type { CommandContext } from "./context.ts";
import { EventType, recordEvent } from "./event.ts";

export interface HiveFields {
  readonly name: string;
  readonly type: HiveType;
  readonly boxes: number;
  readonly colonyOrigin: string;
  readonly note: string;
  readonly qrCode: string;
}

export interface CreateHiveInput extends HiveFields {
  readonly apiaryId: string;
  readonly photo: string;
}

export function checkHiveFields(input: HiveFields): HiveFields {
  const name = input.name.trim();
  if (name === "") throw invalid("name", "name is required");
  if (!Number.isInteger(input.boxes) || input.boxes < 0) {
    throw invalid("boxes", "boxes must not be negative");
  }
  return { ...input, name };
}

/**
 * @param apiary the target apiary as stored, or undefined when it does not
 *   exist in the tenant (→ not_found).
 */
export function createHive(
  ctx: CommandContext,
  apiary: { readonly id: string } | undefined,
  input: CreateHiveInput,
): { id: string; changes: Change[] } {
  if (input.apiaryId.trim() === "") throw invalid("apiaryId", "apiaryId is required");
  const fields = checkHiveFields(input);
  if (apiary === undefined) throw notFound("apiary", input.apiaryId);
  const id = ctx.newId();
  const now = ctx.now.toISOString();
  return {
    id,
    changes: [
      upsert(ctx, "hive", id, apiary.id, {
        apiary_id: apiary.id,
        name: fields.name,
        type: fields.type,
        status: HiveStatus.ACTIVE,
        boxes: fields.boxes,
        colony_origin: fields.colonyOrigin,
        note: fields.note,
        qr_code: fields.qrCode,
        photo: input.photo,
        created_at: now,
        updated_at: now,
      }),
      upsert(ctx, "placement", ctx.newId(), apiary.id, {
        hive_id: id,
        apiary_id: apiary.id,
        started_at: now,
        ended_at: null,
      }),
      recordEvent(ctx, {
        type: EventType.CREATED,
        date: now,
        apiaryId: apiary.id,
        hiveId: id,
        refEntity: "hive",
        refId: id,
        title: `Hive ${fields.name} created`,
      }),
    ],
  };
}
