/**
 * Harvest commands (contract §4.8, §6). A harvest freezes the hive's apiary
 * and reigning queen as of its date and records a HARVEST event carrying the
 * amount, which is what every honey figure sums. There is no update: a wrong
 * harvest is deleted (its event with it, so the figures drop) and recorded
 * again.
 */
import type { Change } from "../change.ts";
import { invalid, notFound } from "../domain-error.ts";
import { entities } from "../entities.ts";
import { checkHappened } from "../happened.ts";
import type { CommandContext } from "./context.ts";
import { EventType, type HiveAsOf, recordOfHive, removeRecordOfHive } from "./event.ts";
import { checkedPayload } from "./payload-check.ts";

export interface CreateHarvestInput {
  readonly hiveId: string;
  readonly amountKg: number;
  /** RFC 3339; the caller defaults it to now. */
  readonly date: string;
  readonly variety: string;
  readonly waterContent: number;
  readonly batchNumber: string;
  /** RFC 3339, or null when unset. */
  readonly bestBefore: string | null;
  readonly note: string;
}

/** The hive as of the harvest's date. */
export type HarvestHive = HiveAsOf;

/** A live row the delete tombstones: its id and the scope it lives in. */
export interface ScopedRow {
  readonly id: string;
  readonly scopeId: string;
}

/** What DeleteHarvest needs to know of an existing harvest. */
export interface HarvestState extends ScopedRow {
  /** The live HARVEST events that point at it (normally one). */
  readonly events: readonly ScopedRow[];
}

/** The title of a HARVEST event (contract §6.1): "12.5 kg Acacia", or "Honey". */
export function harvestTitle(amountKg: number, variety: string): string {
  const v = variety.trim();
  return v === "" ? "Honey" : `${String(amountKg)} kg ${v}`;
}

/**
 * @param hive the hive as of input.date, or undefined when it does not exist
 *   (live) in the tenant (→ not_found).
 */
export function createHarvest(
  ctx: CommandContext,
  hive: HarvestHive | undefined,
  input: CreateHarvestInput,
): { id: string; changes: Change[] } {
  if (input.hiveId.trim() === "") throw invalid("hiveId", "hiveId is required");
  // The contract's own words for this one rule (§7: "amountKg not above 0"); Push says "must be
  // greater than 0" for the same column rule (`positive`), which its tests hold it to.
  if (!(input.amountKg > 0)) throw invalid("amountKg", "amountKg must be above 0");
  // The registry's column rules (water content 0 … 100 %, text lengths), as Push checks them.
  const fields = checkedPayload(entities.harvest, {
    date: input.date,
    variety: input.variety.trim(),
    amount_kg: input.amountKg,
    water_content: input.waterContent,
    batch_number: input.batchNumber,
    best_before: input.bestBefore,
    note: input.note,
  });
  // The date says when it was harvested: not in the future. bestBefore is planned: free.
  checkHappened("date", fields.date as string, ctx.now);
  if (hive === undefined) throw notFound("hive", input.hiveId);
  return recordOfHive(ctx, "harvest", hive, fields, {
    type: EventType.HARVEST,
    date: input.date,
    amountKg: input.amountKg,
    title: harvestTitle(input.amountKg, String(fields.variety)),
  });
}

/** Tombstones the harvest and its HARVEST events, so honey figures drop. */
export function deleteHarvest(
  ctx: CommandContext,
  current: HarvestState | undefined,
  id: string,
): Change[] {
  if (current === undefined) throw notFound("harvest", id);
  return removeRecordOfHive(ctx, "harvest", current);
}
