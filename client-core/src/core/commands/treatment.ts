/**
 * Treatment commands (contract §4.7). A treatment freezes the hive's apiary
 * and reigning queen as of its date (the medicine log of a colony must name
 * where it stood and which queen headed it) and records a TREATMENT event
 * titled with the product (DESIGN.md §3). An update corrects a wrong entry and a
 * delete removes one (issue 25); the event follows the record either way.
 *
 * The treatment register's trail (issue 26): every version of a treatment is a TREATMENT event
 * with a snapshot of the register fields (`detail_json` = {"register": …}), its author and
 * created_at (who wrote it, when). The first is the live event CreateTreatment records. A
 * correction that changes what the live event shows (date, product, apiary, queen) renews it as
 * before, the new one holding the new snapshot; a correction of any other register field (dose,
 * batch, supplier, …) leaves the live event alone and records its version as an event created
 * already tombstoned, so the timeline keeps one event per treatment even when two devices correct
 * it offline at once (two such versions never collide: each is its own row). A delete also
 * writes who deleted it and when (`deleted_by`, `deleted_at`) with the tombstone.
 * core/register.ts reads the trail back.
 */
import type { Change } from "../change.ts";
import { invalid, notFound } from "../domain-error.ts";
import { entities } from "../entities.ts";
import { checkHappened } from "../happened.ts";
import { tombstone, upsert } from "./change-builders.ts";
import type { CommandContext } from "./context.ts";
import {
  EventType,
  type HiveAsOf,
  type HiveRecordState,
  recordEvent,
  recordOfHive,
  refrozen,
  removeRecordOfHive,
  rewriteRecordOfHive,
} from "./event.ts";
import { checkedPayload } from "./payload-check.ts";

/** The reason of a treatment that names none (contract §4.7). */
export const defaultTreatmentReason = "varroa";

/** The fields CreateTreatment and UpdateTreatment share. */
export interface TreatmentFields {
  readonly product: string;
  readonly activeIngredient: string;
  readonly dose: string;
  readonly method: string;
  readonly batchNumber: string;
  /** RFC 3339, or null when unset (it stays unset). */
  readonly withdrawalUntil: string | null;
  /** "" (or blank) means the default, "varroa". */
  readonly reason: string;
  /** RFC 3339; the caller defaults it to now (it also reads the hive as of it). */
  readonly date: string;
  /** Who sold or gave the medicine; absent = "". */
  readonly supplier?: string;
}

export interface CreateTreatmentInput extends TreatmentFields {
  readonly hiveId: string;
}

/** The hive as of the treatment's date. */
export type TreatmentHive = HiveAsOf;

/** The treatment's columns, checked as on create; `prefix` names the request message. */
function treatmentColumns(ctx: CommandContext, input: TreatmentFields, prefix: string) {
  const product = input.product.trim();
  if (product === "") throw invalid(`${prefix}product`, `${prefix}product is required`);
  const reason = input.reason.trim() === "" ? defaultTreatmentReason : input.reason.trim();
  const fields = checkedPayload(
    entities.treatment,
    {
      product,
      active_ingredient: input.activeIngredient,
      dose: input.dose,
      method: input.method,
      batch_number: input.batchNumber,
      withdrawal_until: input.withdrawalUntil,
      reason,
      date: input.date,
      supplier: input.supplier ?? "",
    },
    prefix,
  );
  // The date says when it was given: not in the future. withdrawalUntil is planned: free.
  checkHappened(`${prefix}date`, fields.date as string, ctx.now);
  return fields;
}

/** The register fields a TREATMENT event's detail_json holds (all but the date: the event's own). */
export const registerSnapshotColumns = [
  "product",
  "active_ingredient",
  "dose",
  "method",
  "batch_number",
  "withdrawal_until",
  "reason",
  "supplier",
] as const;

/** The register fields of a treatment's columns, as a snapshot holds them. */
function registerSnapshot(fields: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const register: Record<string, unknown> = {};
  for (const c of registerSnapshotColumns) register[c] = fields[c] ?? null;
  return register;
}

const sameValue = (a: unknown, b: unknown): boolean =>
  (a ?? null) === (b ?? null) ||
  (typeof a === "string" && typeof b === "string" && Date.parse(a) === Date.parse(b));

/** Whether a correction changes any register field the snapshot holds (or the date). */
function registerChanged(
  stored: Readonly<Record<string, unknown>>,
  fields: Readonly<Record<string, unknown>>,
): boolean {
  return [...registerSnapshotColumns, "date"].some(
    (c) => !sameValue(stored[c] ?? "", fields[c] ?? ""),
  );
}

/** The TREATMENT event of a treatment with these checked columns: its title and snapshot. */
function treatmentEvent(fields: Record<string, unknown>) {
  const register = registerSnapshot(fields);
  return {
    type: EventType.TREATMENT,
    date: fields.date as string,
    title: String(fields.product),
    detail: { register },
  };
}

/**
 * @param hive the hive as of input.date, or undefined when it does not exist
 *   (live) in the tenant (→ not_found).
 */
export function createTreatment(
  ctx: CommandContext,
  hive: TreatmentHive | undefined,
  input: CreateTreatmentInput,
): { id: string; changes: Change[] } {
  if (input.hiveId.trim() === "") throw invalid("hiveId", "hiveId is required");
  const fields = treatmentColumns(ctx, input, "");
  if (hive === undefined) throw notFound("hive", input.hiveId);
  return recordOfHive(ctx, "treatment", hive, fields, treatmentEvent(fields));
}

export interface UpdateTreatmentInput extends TreatmentFields {
  readonly id: string;
}

/**
 * Overwrites the fields of the message with CreateTreatment's rules (a field left out takes its
 * default: reason "varroa", date now) but hive_id (never changes: a different one is ignored),
 * apiary_id and queen_id (frozen as of the date: recomputed when the date changes) and
 * created_at. The TREATMENT event follows (its date, frozen ids and title, the product).
 *
 * @param input the request's treatment message; undefined when missing (→ invalid).
 * @param current the stored treatment, or undefined when it does not exist (→ not_found).
 * @param asOf the treatment's hive as of input.date (undefined when the hive is gone).
 */
export function updateTreatment(
  ctx: CommandContext,
  current: HiveRecordState | undefined,
  asOf: TreatmentHive | undefined,
  input: UpdateTreatmentInput | undefined,
  stored: Readonly<Record<string, unknown>> = {},
): Change[] {
  if (input === undefined) throw invalid("treatment", "treatment is required");
  const fields = treatmentColumns(ctx, input, "treatment.");
  if (current === undefined) throw notFound("treatment", input.id);
  const date = fields.date as string;
  const hive = refrozen(current, date, asOf);
  const event = treatmentEvent(fields);
  const changes = rewriteRecordOfHive(ctx, "treatment", current, hive, fields, event);
  // The live event was renewed (it holds this version), or nothing of the register changed.
  if (changes.length > 1 || !registerChanged(stored, fields)) return changes;
  // This version, in the trail only: an event created tombstoned (the timeline shows the live one).
  const version = recordEvent(ctx, {
    ...event,
    apiaryId: hive.apiaryId,
    hiveId: current.hiveId,
    queenId: hive.queenId,
    refEntity: "treatment",
    refId: current.id,
  });
  return [...changes, version, tombstone(ctx, "event", version.entityId, version.scopeId)];
}

/**
 * Tombstones the treatment and its TREATMENT events (a wrong entry), after writing who deleted
 * it and when (`deleted_by`, `deleted_at`): the register keeps showing it, struck through.
 */
export function deleteTreatment(
  ctx: CommandContext,
  current: HiveRecordState | undefined,
  id: string,
): Change[] {
  if (current === undefined) throw notFound("treatment", id);
  return [
    upsert(ctx, "treatment", current.id, current.scopeId, {
      deleted_by: ctx.authorId,
      deleted_at: ctx.now.toISOString(),
    }),
    ...removeRecordOfHive(ctx, "treatment", current),
  ];
}
