/**
 * Domain events (contract §6): append-only rows that carry the apiary, hive
 * and queen of the moment they happened, a title, and a pointer to the detail
 * row. Commands record them next to the change that causes them.
 */
import { EventType } from "@hivekeep/proto";
import type { Change } from "../change.ts";
import { maxTextLength } from "../column-value.ts";
import type { Values } from "../merge.ts";
import { tombstone, upsert } from "./change-builders.ts";
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
  event: Pick<EventInput, "type" | "date" | "title" | "amountKg" | "detail">,
  /** The record's id: a fresh one unless the caller derived it (a scale reading's key). */
  id: string = ctx.newId(),
): { id: string; changes: Change[] } {
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
      recordEvent(ctx, eventOfRecord(event, hive.apiaryId, hive.id, hive.queenId, entity, id)),
    ],
  };
}

/**
 * The event of a record of a hive's life. Its fields are named one by one: `{...event, …}` cost
 * about 10 µs a call in V8 (a spread followed by more properties), a tenth of a scale reading's
 * command in a CreateReadings batch (issue 29).
 */
const eventOfRecord = (
  event: Pick<EventInput, "type" | "date" | "title" | "amountKg" | "detail">,
  apiaryId: string,
  hiveId: string,
  queenId: string,
  refEntity: string,
  refId: string,
): EventInput => ({
  type: event.type,
  date: event.date,
  title: event.title,
  amountKg: event.amountKg,
  detail: event.detail,
  apiaryId,
  hiveId,
  queenId,
  refEntity,
  refId,
});

/** A live event that points at a record, as the record's update or delete needs it. */
export interface RecordEvent {
  readonly id: string;
  readonly scopeId: string;
  readonly type: EventType;
  readonly date: string;
  readonly apiaryId: string;
  readonly queenId: string;
  readonly title: string;
  readonly amountKg: number;
}

/**
 * A stored record of a hive's life (inspection, treatment, harvest) as its update or delete
 * needs it: where it lives, what it froze, and the live events that point at it (normally one).
 */
export interface HiveRecordState {
  readonly id: string;
  readonly scopeId: string;
  readonly hiveId: string;
  readonly date: string;
  readonly apiaryId: string;
  readonly queenId: string;
  readonly events: readonly RecordEvent[];
}

const sameInstant = (a: string, b: string): boolean => Date.parse(a) === Date.parse(b);

/**
 * The frozen context of an edited record: as of its new date when the date changes (`asOf`,
 * the hive as of that date; undefined when the hive is gone, which keeps what it froze), else
 * what it froze.
 */
export function refrozen(
  current: HiveRecordState,
  date: string,
  asOf: HiveAsOf | undefined,
): HiveAsOf {
  if (asOf !== undefined && !sameInstant(current.date, date)) return asOf;
  return { id: current.hiveId, apiaryId: current.apiaryId, queenId: current.queenId };
}

/**
 * An edit of a record of a hive's life, written once for inspections, treatments and harvests'
 * re-freezing: the record's row with `fields` and the frozen `hive` (its scope follows the
 * apiary), and its event kept true. Events are append-only (Push refuses edits of an event), so
 * when the event's date, apiary, queen, title or amount would change, the old event(s) are
 * tombstoned and a new true one is recorded (with `detail`; its author and created_at say who
 * changed it and when); an event already true is left alone (its detail is not compared: a
 * treatment's trail of other corrections is kept apart, commands/treatment.ts).
 */
export function rewriteRecordOfHive(
  ctx: CommandContext,
  entity: "inspection" | "treatment" | "harvest",
  current: HiveRecordState,
  hive: HiveAsOf,
  fields: Values,
  event: Pick<EventInput, "type" | "date" | "title" | "amountKg" | "detail">,
): Change[] {
  const changes: Change[] = [
    upsert(ctx, entity, current.id, hive.apiaryId, {
      ...fields,
      apiary_id: hive.apiaryId,
      queen_id: hive.queenId,
    }),
  ];
  const title = eventTitle(event.title);
  const amountKg = event.amountKg ?? 0;
  const [only, ...more] = current.events;
  const stillTrue =
    only !== undefined &&
    more.length === 0 &&
    only.type === event.type &&
    sameInstant(only.date, event.date) &&
    only.apiaryId === hive.apiaryId &&
    only.queenId === hive.queenId &&
    only.title === title &&
    only.amountKg === amountKg;
  if (stillTrue) return changes;
  for (const e of current.events) changes.push(tombstone(ctx, "event", e.id, e.scopeId));
  changes.push(
    recordEvent(
      ctx,
      eventOfRecord(event, hive.apiaryId, current.hiveId, hive.queenId, entity, current.id),
    ),
  );
  return changes;
}

/** Deleting a record of a hive's life: the record and every live event that points at it. */
export function removeRecordOfHive(
  ctx: CommandContext,
  entity: "inspection" | "treatment" | "harvest",
  current: Pick<HiveRecordState, "id" | "scopeId"> & {
    readonly events: readonly { readonly id: string; readonly scopeId: string }[];
  },
): Change[] {
  return [
    tombstone(ctx, entity, current.id, current.scopeId),
    ...current.events.map((e) => tombstone(ctx, "event", e.id, e.scopeId)),
  ];
}
