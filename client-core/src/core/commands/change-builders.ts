/** Small builders every command uses, so a Change is shaped in one place. */
import type { Change } from "../change.ts";
import type { EntityName } from "../entities.ts";
import type { Values } from "../merge.ts";
import type { CommandContext } from "./context.ts";

export function upsert(
  ctx: CommandContext,
  entity: EntityName,
  entityId: string,
  scopeId: string,
  payload: Values,
): Change {
  return {
    entity,
    entityId,
    scopeId,
    op: "upsert",
    payload,
    hlc: ctx.stamp(),
    authorId: ctx.authorId,
  };
}

export function tombstone(
  ctx: CommandContext,
  entity: EntityName,
  entityId: string,
  scopeId: string,
): Change {
  return {
    entity,
    entityId,
    scopeId,
    op: "delete",
    payload: {},
    hlc: ctx.stamp(),
    authorId: ctx.authorId,
  };
}
