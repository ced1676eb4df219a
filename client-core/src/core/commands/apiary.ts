/**
 * Apiary commands: state in, changes out. The same functions run on the
 * server (RPCs) and on devices (local writes pushed later).
 */
import type { Change } from "../change.ts";
import { DomainError, invalid, notFound } from "../domain-error.ts";
import { entities } from "../entities.ts";
import { tombstone, upsert } from "./change-builders.ts";
import type { CommandContext } from "./context.ts";
import { checkedPayload } from "./payload-check.ts";

export interface ApiaryInput {
  readonly name: string;
  readonly address: string;
  readonly lat: number;
  readonly lng: number;
}

/** What the commands need to know of an existing apiary. */
export interface ApiaryState {
  readonly id: string;
  /** Live hives standing at the apiary. */
  readonly liveHives: number;
}

/**
 * The fields, checked with the registry's column rules (lat -90 … 90, lng -180 … 180, text
 * lengths): the rules Push applies, so an RPC stores nothing a device could not push, and a
 * value is refused with the same words either way.
 */
function checked(input: ApiaryInput): ApiaryInput {
  const name = input.name.trim();
  if (name === "") throw invalid("name", "name is required");
  const fields = { name, address: input.address.trim(), lat: input.lat, lng: input.lng };
  checkedPayload(entities.apiary, fields);
  return fields;
}

export function createApiary(
  ctx: CommandContext,
  input: ApiaryInput,
): { id: string; changes: Change[] } {
  const fields = checked(input);
  const id = ctx.newId();
  const now = ctx.now.toISOString();
  return {
    id,
    changes: [upsert(ctx, "apiary", id, id, { ...fields, created_at: now, updated_at: now })],
  };
}

/** Overwrites every field (a field left out is its default). */
export function updateApiary(
  ctx: CommandContext,
  current: ApiaryState | undefined,
  id: string,
  input: ApiaryInput,
): Change[] {
  if (current === undefined) throw notFound("apiary", id);
  const fields = checked(input);
  return [upsert(ctx, "apiary", id, id, { ...fields, updated_at: ctx.now.toISOString() })];
}

/** Tombstones the apiary; refused while live hives stand there. */
export function deleteApiary(
  ctx: CommandContext,
  current: ApiaryState | undefined,
  id: string,
): Change[] {
  if (current === undefined) throw notFound("apiary", id);
  if (current.liveHives > 0) {
    const n = current.liveHives;
    throw new DomainError(
      "precondition",
      `apiary still has ${n} live hive${n === 1 ? "" : "s"}; move or delete ${n === 1 ? "it" : "them"} first`,
    );
  }
  return [tombstone(ctx, "apiary", id, id)];
}
