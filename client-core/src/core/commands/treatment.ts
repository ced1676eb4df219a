/**
 * Treatment commands (contract §4.7). A treatment freezes the hive's apiary
 * and reigning queen as of its date (the medicine log of a colony must name
 * where it stood and which queen headed it) and records a TREATMENT event
 * titled with the product (DESIGN.md §3). There is no update or delete:
 * treatments are legal records.
 */
import type { Change } from "../change.ts";
import { invalid, notFound } from "../domain-error.ts";
import { entities } from "../entities.ts";
import type { CommandContext } from "./context.ts";
import { EventType, type HiveAsOf, recordOfHive } from "./event.ts";
import { checkedPayload } from "./payload-check.ts";

/** The reason of a treatment that names none (contract §4.7). */
export const defaultTreatmentReason = "varroa";

export interface CreateTreatmentInput {
  readonly hiveId: string;
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
}

/** The hive as of the treatment's date. */
export type TreatmentHive = HiveAsOf;

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
  const product = input.product.trim();
  if (product === "") throw invalid("product", "product is required");
  const reason = input.reason.trim() === "" ? defaultTreatmentReason : input.reason.trim();
  const fields = checkedPayload(entities.treatment, {
    product,
    active_ingredient: input.activeIngredient,
    dose: input.dose,
    method: input.method,
    batch_number: input.batchNumber,
    withdrawal_until: input.withdrawalUntil,
    reason,
    date: input.date,
  });
  if (hive === undefined) throw notFound("hive", input.hiveId);
  return recordOfHive(ctx, "treatment", hive, fields, {
    type: EventType.TREATMENT,
    date: fields.date as string,
    title: product,
  });
}
