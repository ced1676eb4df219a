/**
 * Queen commands (contract §3, §4.5, §6). A hive has one reigning queen: the
 * queen whose interval introduced_at … replaced_at covers a date is the one
 * inspections, treatments and harvests freeze (store/hive-context.ts). So
 * CreateQueen ends the reign of the hive's active queen exactly at the new
 * queen's introduced_at: no gap and no overlap between the two intervals.
 */
import { MarkingColor } from "@hivekeep/proto";
import type { Change } from "../change.ts";
import { invalid, notFound } from "../domain-error.ts";
import { entities } from "../entities.ts";
import { checkHappened, checkQueenYear } from "../happened.ts";
import type { Values } from "../merge.ts";
import { tombstone, upsert } from "./change-builders.ts";
import type { CommandContext } from "./context.ts";
import {
  type EventInput,
  EventType,
  type HiveRecordState,
  recordEvent,
  rewriteRecordOfHive,
} from "./event.ts";
import { checkedPayload } from "./payload-check.ts";

export { MarkingColor };

/** The fields CreateQueen and UpdateQueen share. */
export interface QueenFields {
  readonly year: number;
  /** UNSPECIFIED (0) = the colour of the year (defaultMarking). */
  readonly marking: MarkingColor;
  readonly origin: string;
  readonly breederNumber: string;
  readonly note: string;
  /** RFC 3339; undefined = now (contract §2.1.3). */
  readonly introducedAt?: string | undefined;
}

export interface CreateQueenInput extends QueenFields {
  readonly hiveId: string;
}

/** What CreateQueen needs to know of the hive, read by the caller. */
export interface QueenHive {
  readonly id: string;
  /** Where the hive stands now: the scope of its queens. */
  readonly apiaryId: string;
  /** Where it stood at the new queen's introduced_at: frozen on the events. */
  readonly apiaryAtIntroduction: string;
  /** The hive's queens with active = true (normally at most one). */
  readonly activeQueens: readonly { readonly id: string; readonly year: number }[];
}

/** The international marking colours, by the last digit of the year (contract §4.5). */
const colourByDigit = [
  MarkingColor.BLUE, // 0, 5
  MarkingColor.WHITE, // 1, 6
  MarkingColor.YELLOW, // 2, 7
  MarkingColor.RED, // 3, 8
  MarkingColor.GREEN, // 4, 9
] as const;

export function defaultMarking(year: number): MarkingColor {
  const digit = ((year % 10) + 10) % 10;
  return colourByDigit[digit % 5] ?? MarkingColor.UNSPECIFIED;
}

/**
 * The shared columns, checked; year is required on create and update. A queen's year and her
 * introduction say what happened: neither may lie in the future (happened.ts); `prefix` names
 * the request message ("queen." on update).
 */
function queenColumns(ctx: CommandContext, input: QueenFields, prefix = "") {
  if (input.year === 0) throw invalid("year", "year is required");
  checkQueenYear(`${prefix}year`, input.year, ctx.now);
  checkHappened(`${prefix}introducedAt`, input.introducedAt, ctx.now);
  return {
    year: input.year,
    marking:
      input.marking === MarkingColor.UNSPECIFIED ? defaultMarking(input.year) : input.marking,
    origin: input.origin,
    breeder_number: input.breederNumber,
    introduced_at: input.introducedAt ?? ctx.now.toISOString(),
    note: input.note,
  };
}

/**
 * Introduces a queen: the new row (active), every active queen of the hive
 * replaced (active false, replaced_at = the new introduced_at), and the events
 * QUEEN_REPLACED (per replaced queen) then QUEEN_INTRODUCED, in that order, so
 * the later event carries the greater HLC and id.
 *
 * @param hive the hive as stored, or undefined when it does not exist (→ not_found).
 */
export function createQueen(
  ctx: CommandContext,
  hive: QueenHive | undefined,
  input: CreateQueenInput,
): { id: string; changes: Change[] } {
  if (input.hiveId.trim() === "") throw invalid("hiveId", "hiveId is required");
  const now = ctx.now.toISOString();
  const columns = checkedPayload(entities.queen, {
    ...queenColumns(ctx, input),
    replaced_at: null,
    active: true,
    created_at: now,
    updated_at: now,
  });
  // A malformed hiveId names no hive: not_found, as for an unknown one.
  if (hive === undefined) throw notFound("hive", input.hiveId);
  const payload: Values = { hive_id: hive.id, ...columns };
  const id = ctx.newId();
  const introducedAt = String(payload.introduced_at);
  const year = Number(payload.year);
  const frozen = { date: introducedAt, apiaryId: hive.apiaryAtIntroduction, hiveId: hive.id };
  const changes: Change[] = [];
  for (const old of hive.activeQueens) {
    changes.push(
      upsert(ctx, "queen", old.id, hive.apiaryId, {
        active: false,
        replaced_at: introducedAt,
        updated_at: now,
      }),
      recordEvent(ctx, {
        ...frozen,
        type: EventType.QUEEN_REPLACED,
        queenId: old.id,
        refEntity: "queen",
        refId: old.id,
        title: `Queen ${old.year} replaced`,
        detail: { replacedBy: id },
      }),
    );
  }
  changes.push(
    upsert(ctx, "queen", id, hive.apiaryId, payload),
    recordEvent(ctx, {
      ...frozen,
      type: EventType.QUEEN_INTRODUCED,
      queenId: id,
      refEntity: "queen",
      refId: id,
      title: `Queen ${year} introduced`,
      ...(hive.activeQueens.length > 0
        ? { detail: { replaces: hive.activeQueens.map((q) => q.id) } }
        : {}),
    }),
  );
  return { id, changes };
}

export interface UpdateQueenInput extends QueenFields {
  readonly id: string;
  /** Required like every field of the whole message, but never written. */
  readonly hiveId: string;
  /** RFC 3339; undefined = unset (still reigning). */
  readonly replacedAt?: string | undefined;
  readonly active: boolean;
}

/** What UpdateQueen needs to know of the stored queen. */
export interface QueenState {
  readonly id: string;
  /** The scope to write to: the apiary of the queen's hive now. */
  readonly scopeId: string;
}

/**
 * Overwrites year, marking, origin, breeder_number, introduced_at, replaced_at,
 * active and note: a field left out takes its default, as on create (marking
 * the colour of the year, introduced_at now, replaced_at unset, active false).
 * hive_id is never written (contract §4.5 rule 3): a different one is
 * ignored. No event is recorded.
 *
 * Contract §4.5 rule 4: "fails with invalid_argument when the hive or queen
 * is missing": the queen message, or its hiveId (required in §2.2).
 *
 * @param input the request's queen message; undefined when missing (→ invalid).
 * @param current the stored queen, or undefined when it does not exist (→ not_found).
 */
export function updateQueen(
  ctx: CommandContext,
  current: QueenState | undefined,
  input: UpdateQueenInput | undefined,
): Change[] {
  if (input === undefined) throw invalid("queen", "queen is required");
  if (input.hiveId.trim() === "") throw invalid("queen.hiveId", "queen.hiveId is required");
  const payload = checkedPayload(entities.queen, {
    ...queenColumns(ctx, input, "queen."),
    replaced_at: input.replacedAt ?? null,
    active: input.active,
    updated_at: ctx.now.toISOString(),
  });
  if (current === undefined) throw notFound("queen", input.id);
  return [upsert(ctx, "queen", current.id, current.scopeId, payload)];
}

/** A queen of the hive as DeleteQueen reads her. */
export interface QueenReign {
  readonly id: string;
  readonly scopeId: string;
  readonly year: number;
  /** When her reign began: introduced_at, else created_at (RFC 3339). */
  readonly start: string;
  /** RFC 3339; null while she reigns. */
  readonly replacedAt: string | null;
  readonly active: boolean;
}

/** A live event about one of the hive's queens (ref_entity "queen"). */
export interface QueenEvent {
  readonly id: string;
  readonly scopeId: string;
  readonly type: EventType;
  /** RFC 3339. */
  readonly date: string;
  readonly apiaryId: string;
  readonly title: string;
  /** The queen it is about (its ref_id). */
  readonly refId: string;
  /** detail_json, parsed ({} when empty or unreadable). */
  readonly detail: Record<string, unknown>;
}

/** A record (inspection, treatment, harvest) that froze the queen, with its event's facts. */
export interface FrozenRecord {
  readonly entity: "inspection" | "treatment" | "harvest";
  readonly state: HiveRecordState;
  readonly event: Pick<EventInput, "type" | "title" | "amountKg">;
}

/** What DeleteQueen needs to know, read by the caller. */
export interface DeleteQueenState {
  readonly hiveId: string;
  readonly queen: QueenReign;
  /** The hive's other live queens. */
  readonly others: readonly QueenReign[];
  /** The live events about the hive's queens. */
  readonly events: readonly QueenEvent[];
  /** The scope of the hive's queens: the apiary the hive stands at now. */
  readonly scopeId: string;
  /** The records that froze her. */
  readonly records: readonly FrozenRecord[];
}

const ms = (iso: string): number => Date.parse(iso);

/**
 * The queen a queen replaced: among the hive's other queens whose reign ended when hers began,
 * the one `named` (her QUEEN_INTRODUCED event's `detail.replaces`), else the latest begun (ties:
 * the greater id). DeleteQueen's rule, and what the app's confirmation says before it runs.
 */
export function queenBefore<T extends Pick<QueenReign, "id" | "start" | "replacedAt">>(
  queen: Pick<QueenReign, "start">,
  others: readonly T[],
  named: readonly unknown[] = [],
): T | undefined {
  const ended = others
    .filter((q) => q.replacedAt !== null && ms(q.replacedAt) === ms(queen.start))
    .sort((a, b) => ms(a.start) - ms(b.start) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return ended.find((q) => named.includes(q.id)) ?? ended.at(-1);
}

/** The queen she replaced (queenBefore), by her QUEEN_INTRODUCED event's word first. */
function predecessorOf(state: DeleteQueenState): QueenReign | undefined {
  const { queen } = state;
  const introduced = state.events.find(
    (e) => e.refId === queen.id && e.type === EventType.QUEEN_INTRODUCED,
  );
  const replaces = introduced?.detail.replaces;
  return queenBefore(queen, state.others, Array.isArray(replaces) ? replaces : []);
}

/** The queen whose reign covers `at` among `queens` (the latest begun), "" when none. */
function reigningAt(queens: readonly QueenReign[], at: string): string {
  const t = ms(at);
  let best: QueenReign | undefined;
  for (const q of queens) {
    if (!(ms(q.start) <= t) || (q.replacedAt !== null && !(ms(q.replacedAt) > t))) continue;
    if (
      best === undefined ||
      ms(q.start) > ms(best.start) ||
      (q.start === best.start && q.id > best.id)
    ) {
      best = q;
    }
  }
  return best?.id ?? "";
}

/**
 * Deletes a queen (issue 25; docs/decisions.md): her row and her own events (QUEEN_INTRODUCED,
 * and the QUEEN_REPLACED that records her end) are tombstoned. The queen she replaced reigns
 * again in her place: her replaced_at and active become the deleted queen's (null and true when
 * the deleted queen was reigning), her QUEEN_REPLACED event naming the deleted queen is
 * tombstoned, and a true one is recorded when her reign still ends; her successor's
 * QUEEN_INTRODUCED that names her is renewed naming the queen she replaced. With no queen before
 * her, the hive is queenless for that time. The records that froze her (and their events) are
 * re-frozen to whoever reigns at their date afterwards, or none (rewriteRecordOfHive).
 *
 * @param current what the caller read, or undefined when the queen does not exist (→ not_found).
 */
export function deleteQueen(
  ctx: CommandContext,
  current: DeleteQueenState | undefined,
  id: string,
): Change[] {
  if (current === undefined) throw notFound("queen", id);
  const { queen, hiveId } = current;
  const changes: Change[] = [tombstone(ctx, "queen", queen.id, queen.scopeId)];
  const own = current.events.filter((e) => e.refId === queen.id);
  for (const e of own) changes.push(tombstone(ctx, "event", e.id, e.scopeId));
  const before = predecessorOf(current);
  let after = current.others;
  if (before !== undefined) {
    const restored: QueenReign = { ...before, replacedAt: queen.replacedAt, active: queen.active };
    after = current.others.map((q) => (q.id === before.id ? restored : q));
    changes.push(
      upsert(ctx, "queen", before.id, current.scopeId || before.scopeId, {
        replaced_at: queen.replacedAt,
        active: queen.active,
        updated_at: ctx.now.toISOString(),
      }),
    );
    for (const e of current.events) {
      if (
        e.refId === before.id &&
        e.type === EventType.QUEEN_REPLACED &&
        e.detail.replacedBy === queen.id
      ) {
        changes.push(tombstone(ctx, "event", e.id, e.scopeId));
      }
    }
    if (queen.replacedAt !== null) {
      const end = own.find((e) => e.type === EventType.QUEEN_REPLACED);
      const by = end?.detail.replacedBy;
      changes.push(
        recordEvent(ctx, {
          type: EventType.QUEEN_REPLACED,
          date: queen.replacedAt,
          apiaryId: end?.apiaryId || current.scopeId,
          hiveId,
          queenId: before.id,
          refEntity: "queen",
          refId: before.id,
          title: `Queen ${before.year} replaced`,
          ...(typeof by === "string" ? { detail: { replacedBy: by } } : {}),
        }),
      );
    }
  }
  // Her successor's QUEEN_INTRODUCED named her as the queen replaced: it is renewed naming the
  // queen she replaced (or none), so the timeline stays true.
  for (const e of current.events) {
    const replaces = e.detail.replaces;
    if (e.type !== EventType.QUEEN_INTRODUCED || e.refId === queen.id) continue;
    if (!Array.isArray(replaces) || !replaces.includes(queen.id)) continue;
    const named = new Set(replaces.map((r) => (r === queen.id ? before?.id : r)));
    named.delete(undefined);
    changes.push(
      tombstone(ctx, "event", e.id, e.scopeId),
      recordEvent(ctx, {
        type: EventType.QUEEN_INTRODUCED,
        date: e.date,
        apiaryId: e.apiaryId,
        hiveId,
        queenId: e.refId,
        refEntity: "queen",
        refId: e.refId,
        title: e.title,
        ...(named.size > 0 ? { detail: { ...e.detail, replaces: [...named] } } : {}),
      }),
    );
  }
  for (const record of current.records) {
    const { state } = record;
    const hive = { id: hiveId, apiaryId: state.apiaryId, queenId: reigningAt(after, state.date) };
    changes.push(
      ...rewriteRecordOfHive(
        ctx,
        record.entity,
        state,
        hive,
        {},
        {
          ...record.event,
          date: state.date,
        },
      ),
    );
  }
  return changes;
}
