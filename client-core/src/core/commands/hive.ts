/**
 * Hive commands. A hive stands at one apiary at a time; each stay is a
 * placement (started_at … ended_at, open while ended_at is null), which only
 * travels in the change feed. A hive's changes are scoped to the apiary it
 * stands at, so after a relocation they go to devices of the new apiary.
 *
 * - createHive: status ACTIVE, opens the first placement, records CREATED, both at the set-up
 *   `date` (when the hive was set up at its apiary; the service defaults it to now), so a hive
 *   entered after the fact has its history from the day it arrived.
 * - updateHive: overwrites name, type, status, boxes, colony_origin, note and
 *   qr_code; never apiary_id (RelocateHive) or photo. A status change records
 *   STATUS, or DISSOLVED when the new status is DISSOLVED.
 * - relocateHive: closes the open placement at `date`, opens one at the
 *   target, moves the hive and its queens to the target's scope, records
 *   MOVED {from, to}.
 * - deleteHive: tombstone, the open placement is closed and the hive's open
 *   tasks are tombstoned (issue 25: none stays listed as "deleted hive"; done
 *   tasks stay as history). Inspections, treatments and harvests of the hive
 *   stay (they are legal records). An open task that reaches the server after
 *   the delete is tombstoned by the server's repair (core/orphans.ts).
 *
 * Decisions where the contract is silent:
 * - UpdateHive with status HIVE_STATUS_UNSPECIFIED (0, or left out) keeps the
 *   current status: a hive never has "no status", and a client that does not
 *   know the field must not wipe it.
 * - RelocateHive to the apiary the hive already stands at is invalid_argument
 *   ("hive already stands at that apiary"): nothing would move, and a MOVED
 *   event from A to A would be wrong.
 * - RelocateHive with a date before the open placement started is
 *   invalid_argument (an interval cannot end before it starts). A set-up or
 *   move date in the future is invalid_argument `date` (core/happened.ts: a day
 *   of tolerance). A date at most 60 s before it (the clock
 *   skew Push tolerates, `defaultMaxAheadMs`) is a clock running behind: the
 *   move is recorded at the arrival instead.
 * - The MOVED event belongs to the target apiary (where the hive now stands);
 *   its detail_json is {"from": <apiary id>, "to": <apiary id>}. STATUS and
 *   DISSOLVED events carry {"from": <status number>, "to": <status number>}.
 * - Every field is checked with the registry's column rules, as Push checks
 *   them, so an RPC stores nothing a device could not push (boxes outside
 *   0 … 20, unknown enum numbers, text over 10 000 characters, a photo that is
 *   not a data:image/ URL of ≤ 512 KiB), and says so in the same words.
 */
import { HiveStatus, type HiveType } from "@hivekeep/proto";
import type { Change } from "../change.ts";
import { invalid, notFound } from "../domain-error.ts";
import { entities } from "../entities.ts";
import { checkHappened } from "../happened.ts";
import { defaultMaxAheadMs } from "../hlc.ts";
import { parseRfc3339 } from "../rfc3339.ts";
import { tombstone, upsert } from "./change-builders.ts";
import type { CommandContext } from "./context.ts";
import { EventType, recordEvent } from "./event.ts";
import { checkedPayload } from "./payload-check.ts";

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
  /** When the hive was set up at its apiary (RFC 3339); the service defaults it to now. */
  readonly date: string;
}

/** The whole hive message of UpdateHive; apiaryId and photo in it are ignored. */
export interface UpdateHiveInput extends HiveFields {
  readonly id: string;
  /** HIVE_STATUS_UNSPECIFIED (0) keeps the current status. */
  readonly status: HiveStatus;
}

export interface RelocateHiveInput {
  readonly id: string;
  readonly targetApiaryId: string;
  /** When the hive was moved (RFC 3339); the server defaults it to now. */
  readonly date: string;
}

/** An open placement of a hive, as stored. */
export interface PlacementState {
  readonly id: string;
  readonly apiaryId: string;
  /** RFC 3339. */
  readonly startedAt: string;
}

/** What the commands need to know of an existing hive. */
export interface HiveState {
  readonly id: string;
  readonly name: string;
  readonly apiaryId: string;
  readonly status: HiveStatus;
  /** The queen reigning at the time of the operation ("" = none), for events. */
  readonly queenId: string;
  /** Normally one; devices writing concurrently may leave more. */
  readonly openPlacements: readonly PlacementState[];
  /**
   * The ids of the hive's live queens, reigning or not: RelocateHive moves them to the scope of
   * the target apiary (a queen's scope is the apiary her hive stands at). Only RelocateHive reads
   * them; left out, none move.
   */
  readonly queenIds?: readonly string[];
  /** The hive's open (live, not done) tasks: DeleteHive tombstones them. Left out, none. */
  readonly openTasks?: readonly { readonly id: string; readonly scopeId: string }[];
}

export interface RelocationTarget {
  readonly id: string;
  readonly name: string;
}

/** Validates the editable fields; `prefix` names the request message ("hive."). */
export function checkHiveFields(input: HiveFields, prefix = ""): HiveFields {
  const name = input.name.trim();
  if (name === "") throw invalid(`${prefix}name`, "name is required");
  // The registry's column rules (boxes 0 … 20, text lengths, enum numbers): Push's.
  checkedPayload(
    entities.hive,
    {
      name,
      type: input.type,
      boxes: input.boxes,
      colony_origin: input.colonyOrigin,
      note: input.note,
      qr_code: input.qrCode,
    },
    prefix,
  );
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
  checkedPayload(entities.hive, { photo: input.photo });
  const date = happenedDate(input.date, ctx.now);
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
      openPlacement(ctx, id, apiary.id, date),
      recordEvent(ctx, {
        type: EventType.CREATED,
        date,
        apiaryId: apiary.id,
        hiveId: id,
        refEntity: "hive",
        refId: id,
        title: `Hive ${fields.name} created`,
      }),
    ],
  };
}

/**
 * @param input the request's hive message; undefined (left out) → invalid_argument.
 * @param current the stored hive, or undefined when unknown (→ not_found).
 */
export function updateHive(
  ctx: CommandContext,
  current: HiveState | undefined,
  input: UpdateHiveInput | undefined,
): Change[] {
  if (input === undefined) throw invalid("hive", "hive is required");
  if (current === undefined) throw notFound("hive", input.id);
  const fields = checkHiveFields(input, "hive.");
  checkedPayload(entities.hive, { status: input.status }, "hive.");
  const status = input.status === HiveStatus.UNSPECIFIED ? current.status : input.status;
  const now = ctx.now.toISOString();
  const changes = [
    upsert(ctx, "hive", current.id, current.apiaryId, {
      name: fields.name,
      type: fields.type,
      status,
      boxes: fields.boxes,
      colony_origin: fields.colonyOrigin,
      note: fields.note,
      qr_code: fields.qrCode,
      updated_at: now,
    }),
  ];
  if (status !== current.status) {
    const dissolved = status === HiveStatus.DISSOLVED;
    changes.push(
      recordEvent(ctx, {
        type: dissolved ? EventType.DISSOLVED : EventType.STATUS,
        date: now,
        apiaryId: current.apiaryId,
        hiveId: current.id,
        queenId: current.queenId,
        refEntity: "hive",
        refId: current.id,
        title: dissolved
          ? `Hive ${fields.name} dissolved`
          : `Hive ${fields.name}: ${statusLabel(current.status)} → ${statusLabel(status)}`,
        // Enum numbers, as stored in hives.status.
        detail: { from: current.status, to: status },
      }),
    );
  }
  return changes;
}

/**
 * @param target the target apiary as stored, or undefined when it does not
 *   exist in the tenant (→ not_found).
 */
export function relocateHive(
  ctx: CommandContext,
  current: HiveState | undefined,
  target: RelocationTarget | undefined,
  input: RelocateHiveInput,
): Change[] {
  if (input.targetApiaryId.trim() === "") {
    throw invalid("targetApiaryId", "targetApiaryId is required");
  }
  if (current === undefined) throw notFound("hive", input.id);
  if (target === undefined) throw notFound("apiary", input.targetApiaryId);
  if (target.id === current.apiaryId) {
    throw invalid("targetApiaryId", "hive already stands at that apiary");
  }
  const date = movedAt(happenedDate(input.date, ctx.now), current.openPlacements);
  const from = current.apiaryId;
  const now = ctx.now.toISOString();
  return [
    upsert(ctx, "hive", current.id, target.id, { apiary_id: target.id, updated_at: now }),
    // Her hive's apiary is a queen's scope (not a column of hers): a write moves it, as
    // UpdateQueen's does, so whoever sees the hive's new apiary sees its queens.
    ...(current.queenIds ?? []).map((id) =>
      upsert(ctx, "queen", id, target.id, { updated_at: now }),
    ),
    ...closePlacements(ctx, current, date),
    openPlacement(ctx, current.id, target.id, date),
    recordEvent(ctx, {
      type: EventType.MOVED,
      date,
      // The event belongs where the hive now stands; detail keeps both ends.
      apiaryId: target.id,
      hiveId: current.id,
      queenId: current.queenId,
      refEntity: "hive",
      refId: current.id,
      title: `Hive ${current.name} moved to ${target.name}`,
      detail: { from, to: target.id },
    }),
  ];
}

/** Tombstones the hive and its open tasks and closes its open placement; its records stay. */
export function deleteHive(
  ctx: CommandContext,
  current: HiveState | undefined,
  id: string,
): Change[] {
  if (current === undefined) throw notFound("hive", id);
  return [
    tombstone(ctx, "hive", current.id, current.apiaryId),
    ...closePlacements(ctx, current, ctx.now.toISOString()),
    ...(current.openTasks ?? []).map((t) => tombstone(ctx, "task", t.id, t.scopeId)),
  ];
}

/** A set-up or move `date`: RFC 3339, and not in the future (the one rule of core/happened.ts). */
function happenedDate(iso: string, now: Date): string {
  const parsed = parseRfc3339(iso);
  if ("error" in parsed) throw invalid("date", `date ${parsed.error}`);
  checkHappened("date", parsed.value, now);
  return parsed.value;
}

/**
 * The date the move is recorded at. An interval cannot end before it started, so a date before
 * the hive arrived (the latest open placement's start) is refused, unless it is within the clock
 * skew Push tolerates (`defaultMaxAheadMs`, 60 s): a client whose clock runs a little behind the
 * one that placed the hive, sending "now", moves it on arrival.
 */
function movedAt(date: string, open: readonly PlacementState[]): string {
  const arrival = open.reduce<string | undefined>(
    (latest, p) => (latest === undefined || p.startedAt > latest ? p.startedAt : latest),
    undefined,
  );
  if (arrival === undefined || Date.parse(date) >= Date.parse(arrival)) return date;
  if (Date.parse(arrival) - Date.parse(date) > defaultMaxAheadMs) {
    throw invalid("date", `date must not be before the hive arrived at its apiary (${arrival})`);
  }
  return arrival;
}

function openPlacement(ctx: CommandContext, hiveId: string, apiaryId: string, at: string): Change {
  return upsert(ctx, "placement", ctx.newId(), apiaryId, {
    hive_id: hiveId,
    apiary_id: apiaryId,
    started_at: at,
    ended_at: null,
  });
}

function closePlacements(ctx: CommandContext, hive: HiveState, at: string): Change[] {
  return hive.openPlacements.map((p) =>
    upsert(ctx, "placement", p.id, p.apiaryId, { ended_at: at }),
  );
}

/** "queenless" for HIVE_STATUS_QUEENLESS; "unspecified" for 0. */
const statusLabel = (s: HiveStatus): string =>
  (HiveStatus[s] ?? String(s)).toLowerCase().replace(/_/g, " ");
