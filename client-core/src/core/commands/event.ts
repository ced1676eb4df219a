/**
 * Domain events (contract §6): append-only rows that carry the apiary, hive
 * and queen of the moment they happened, a title, and a pointer to the detail
 * row. Commands record them next to the change that causes them.
 */
import { EventType } from "@hivekeep/proto";
import type { Change } from "../change.ts";
import { maxTextLength } from "../column-value.ts";
import type { Values } from "../merge.ts";
import { upsert } from "./change-builders.ts";
import type { CommandContext } from "./context.ts";

export { EventType };

export interface EventInput {
  readonly type: EventType;
  /** When it happened (RFC 3339). */
  readonly date: string;
  readonly apiaryId: string;
  readonly hiveId: string;
  readonly queenId?: string;
  /** The detail row: entity name and id. */
  readonly refEntity: string;
  readonly refId: string;
  readonly title: string;
  readonly amountKg?: number;
  /** Extra facts (serialised as detail_json), e.g. {from, to} of a move. */
  readonly detail?: Record<string, unknown>;
}

/**
 * A title within the text column rule (`maxTextLength`): titles quote names that may each be
 * that long ("Hive <name> moved to <apiary>"), so a longer one is cut, ending in "…", never
 * inside a surrogate pair. A device pushes what it records: Push would refuse a longer one.
 */
export function eventTitle(title: string): string {
  if (title.length <= maxTextLength) return title;
  let end = maxTextLength - 1;
  const last = title.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${title.slice(0, end)}…`;
}

/** The change that records one event; its scope is the event's apiary. */
export function recordEvent(ctx: CommandContext, input: EventInput): Change {
  return upsert(ctx, "event", ctx.newId(), input.apiaryId, {
    type: input.type,
    date: input.date,
    apiary_id: input.apiaryId,
    hive_id: input.hiveId,
    queen_id: input.queenId ?? "",
    ref_entity: input.refEntity,
    ref_id: input.refId,
    amount_kg: input.amountKg ?? 0,
    detail_json: input.detail ? JSON.stringify(input.detail) : "",
    author_id: ctx.authorId,
    title: eventTitle(input.title),
    created_at: ctx.now.toISOString(),
  });
}

/** The hive as of a record's date (the ops' hiveAt): where it stood, which queen reigned. */
export interface HiveAsOf {
  readonly id: string;
  readonly apiaryId: string;
  /** "" when no queen reigned then. */
  readonly queenId: string;
}

/**
 * A new record of a hive's life (inspection, treatment, harvest) and the event that points at
 * it: both freeze the hive's apiary and reigning queen as of the record's date, and the row
 * lives in that apiary's scope.
 */
export function recordOfHive(
  ctx: CommandContext,
  entity: "inspection" | "treatment" | "harvest",
  hive: HiveAsOf,
  fields: Values,
  event: Pick<EventInput, "type" | "date" | "title" | "amountKg">,
): { id: string; changes: Change[] } {
  const id = ctx.newId();
  return {
    id,
    changes: [
      upsert(ctx, entity, id, hive.apiaryId, {
        hive_id: hive.id,
        apiary_id: hive.apiaryId,
        queen_id: hive.queenId,
        ...fields,
        created_at: ctx.now.toISOString(),
      }),
      recordEvent(ctx, {
        ...event,
        apiaryId: hive.apiaryId,
        hiveId: hive.id,
        queenId: hive.queenId,
        refEntity: entity,
        refId: id,
      }),
    ],
  };
}
