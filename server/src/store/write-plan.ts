/**
 * What a batch of changes writes, decided without the database: the pure half of the one write
 * path (apply-changes.ts is the other half: it loads the rows, runs the plan's statements and
 * answers the outcome).
 *
 * In: the changes, the stored rows they target (loaded before), the feed's head, and Push's
 * check. Each change is checked against its row as it stands (earlier changes of the batch
 * included), then merged with the shared rule (client-core `mergeChange`). Out, chunk by chunk:
 *
 * - the feed entries: the accepted part of each change that contributed something, with the
 *   next sequence numbers after the head (a change of which nothing was accepted, a re-push or
 *   one that lost every column, has none);
 * - the row writes: each row the batch changed, once, with the chunk that holds its last change,
 *   inserted when it is not stored (new, or minted by the request) and upserted when it is;
 * - the shortcut: a row that is exactly one change's accepted payload (never seen, created by one
 *   upsert, no orset column: the merge of such a change is its own state, merge.ts) rides on its
 *   feed entry (`FeedEntry.carries`) when both go out in the same chunk, so the feed's statement
 *   writes it from the payload and its values travel to the database once (docs/decisions.md,
 *   Storage).
 *
 * Chunks: with a database in another process (Postgres) the I/O sends a chunk's statements
 * before the next chunk is planned, so the database writes while the server merges. Hence a
 * generator: it plans the next chunk only when asked. Once a change is rejected no chunk
 * follows (the batch fails), but every later change is still checked, against the rows as the
 * accepted ones left them, so the rejections are the whole batch's.
 */
import {
  type ApplyResult,
  type Change,
  type Conflict,
  type EntityName,
  type EntitySpec,
  entities,
  eventInspectionId,
  heldUntilMs,
  isComplete,
  mergeChange,
  needsState,
  type Rejection,
  type RowFacts,
  type RowState,
  readingDateMs,
  rowKey,
} from "@hivekeep/client-core/core";

/**
 * A Push check of one change against its row as it stands (undefined: none). It may be given to
 * the write path as a promise (of facts still being read), so its queries travel together with
 * the target rows' (one round trip).
 */
export type Check = (change: Change, index: number, existing: RowFacts | undefined) => Rejection[];

/** A row as it is stored (loaded), or as an apply left it in its table. */
export interface WrittenRow {
  readonly state: RowState;
  readonly scopeId: string;
}

export interface WriteInput {
  readonly changes: readonly Change[];
  /** The stored rows the changes target, by `rowKey`; a row not stored is absent. */
  readonly stored: ReadonlyMap<string, WrittenRow>;
  /** The feed's head: the entries take the sequence numbers after it, in order. */
  readonly feedSeq: number;
  readonly check?: Check | undefined;
  /** Changes planned per chunk (default: all of them, one chunk). */
  readonly chunk?: number | undefined;
}

/** An accepted change as the feed records it, at its sequence number. */
export interface FeedEntry {
  readonly seq: number;
  /** The accepted part of the change (a delete's payload is empty), scoped like its row. */
  readonly change: Change;
  /** The row this entry's statement also writes (the shortcut): its values are the payload. */
  readonly carries?: CarriedRow;
  /**
   * The readings window (client-core readings-window.ts): the latest date (ms) the entry's
   * inspection had as a reading across it (both before and after), which a windowed Pull
   * leaves out when before its cutoff; undefined: never left out.
   */
  readonly heldUntil?: number;
  /**
   * A windowed Pull sends its inspection's whole state after it (readings-window.ts): a change
   * of an inspection that was a reading before it, whose earlier changes a device may have been
   * spared or let go.
   */
  readonly withState: boolean;
}

/** What a row written by its feed entry has besides the entry's payload and scope. */
export interface CarriedRow {
  readonly clock: RowState["clock"];
  readonly complete: boolean;
}

/** A row written by its table's statement, as the batch left it. */
export interface RowWrite {
  readonly entity: EntityName;
  readonly id: string;
  readonly scopeId: string;
  readonly state: RowState;
  readonly complete: boolean;
  /** insert: the row is not stored (so a row that did exist fails); upsert: it is. */
  readonly how: "insert" | "upsert";
}

/** The writes of the changes before index `upTo` not yet planned. */
export interface WriteChunk {
  /** The index after the chunk's last change. */
  readonly upTo: number;
  /** In sequence order. */
  readonly feed: readonly FeedEntry[];
  /** The rows whose last change is in the chunk, but those carried by a feed entry. */
  readonly rows: readonly RowWrite[];
}

/** The whole batch, once every chunk is planned. */
export interface WriteSummary {
  /** Of every change; when there are any, the batch must not be written. */
  readonly rejections: readonly Rejection[];
  /** Per accepted change (same order): what the merge did. */
  readonly results: readonly ApplyResult[];
  readonly conflicts: readonly Conflict[];
  /** The sequence number of the last feed entry (the head's when there is none). */
  readonly lastSeq: number;
  /** Every row the batch changed, as written, by `rowKey`. */
  readonly written: ReadonlyMap<string, WrittenRow>;
}

/** A row of the batch as planning goes (private to one `planWrites`). */
interface Target {
  readonly entity: EntityName;
  readonly id: string;
  readonly stored: boolean;
  state: RowState | undefined;
  scopeId: string;
  changed: boolean;
  /**
   * The entry of the one change that made this row, while the row is exactly that change's
   * accepted payload (never seen, one upsert, no orset column).
   */
  madeBy: Made | undefined;
}

/** An accepted change before its chunk is planned. */
interface Made {
  readonly seq: number;
  readonly change: Change;
  readonly heldUntil: number | undefined;
  readonly withState: boolean;
}

/**
 * Plans the batch chunk by chunk (see the top of this file). The generator's return value is the
 * batch's summary; it touches neither its input nor anything outside.
 */
export function* planWrites(input: WriteInput): Generator<WriteChunk, WriteSummary, void> {
  const { changes, check } = input;
  const chunk = input.chunk ?? changes.length;
  const targets = new Map<string, Target>();
  // A row is written once, with the chunk that holds its last change.
  const lastChange = new Map<string, number>();
  for (const [index, c] of changes.entries()) lastChange.set(rowKey(c.entity, c.entityId), index);
  const rejections: Rejection[] = [];
  const results: ApplyResult[] = [];
  const conflicts: Conflict[] = [];
  let seq = input.feedSeq;
  let made: Made[] = [];
  let finished: Target[] = [];

  for (const [index, change] of changes.entries()) {
    const spec = entities[change.entity];
    const key = rowKey(change.entity, change.entityId);
    let target = targets.get(key);
    if (target === undefined) {
      const stored = input.stored.get(key);
      target = {
        entity: change.entity,
        id: change.entityId,
        stored: stored !== undefined,
        state: stored?.state,
        scopeId: stored?.scopeId ?? change.scopeId,
        changed: false,
        madeBy: undefined,
      };
      targets.set(key, target);
    }
    const found = check?.(change, index, target.state && facts(target.state, target.scopeId, spec));
    if (found !== undefined && found.length > 0) {
      rejections.push(...found);
    } else {
      const unseen = target.state === undefined;
      const state = target.state;
      const current = state && {
        values: state.values,
        clock: state.clock,
        deleted: state.deleted,
        scopeId: target.scopeId,
      };
      const { result, row, fed, conflict } = mergeChange(current, change);
      results.push(result);
      if (conflict !== undefined) conflicts.push(conflict);
      if (row !== undefined && fed !== undefined) {
        seq += 1;
        const heldUntil = heldOf(change.entity, current, result.row, targets);
        const withState = change.entity === "inspection" && needsState(current);
        const entry = { seq, change: fed, heldUntil, withState };
        made.push(entry);
        target.state = result.row;
        target.scopeId = row.scopeId;
        target.changed = true;
        target.madeBy = unseen && isOwnState(change, spec) ? entry : undefined;
      }
    }
    if (lastChange.get(key) === index) finished.push(target);
    const chunkEnd = (index + 1) % chunk === 0 || index === changes.length - 1;
    // After a rejection nothing more is planned to be written: the batch fails.
    if (chunkEnd && rejections.length === 0) {
      yield planChunk(index + 1, made, finished);
      made = [];
      finished = [];
    }
  }

  const written = new Map<string, WrittenRow>();
  for (const [key, t] of targets) {
    if (t.changed && t.state !== undefined)
      written.set(key, { state: t.state, scopeId: t.scopeId });
  }
  return { rejections, results, conflicts, lastSeq: seq, written };
}

/**
 * One chunk: the feed entries of its accepted changes, and the rows whose last change it holds.
 * A row that is its entry's payload rides on the entry when the entry is in this chunk (an
 * entry of an earlier chunk has been sent already).
 */
function planChunk(upTo: number, made: readonly Made[], finished: readonly Target[]): WriteChunk {
  const carried = new Map<number, CarriedRow>();
  const rows: RowWrite[] = [];
  // The chunk's entries have consecutive sequence numbers from the first one's.
  const first = made[0]?.seq;
  for (const t of finished) {
    if (!t.changed || t.state === undefined) continue;
    const complete = isComplete(t.state, entities[t.entity]);
    if (t.madeBy !== undefined && first !== undefined && t.madeBy.seq >= first) {
      carried.set(t.madeBy.seq, { clock: t.state.clock, complete });
    } else {
      const how = t.stored ? "upsert" : "insert";
      rows.push({ entity: t.entity, id: t.id, scopeId: t.scopeId, state: t.state, complete, how });
    }
  }
  // Members left undefined rather than spread in: a spread cost µs an entry in V8.
  const feed = made.map(
    ({ seq, change, heldUntil, withState }): FeedEntry => ({
      seq,
      change,
      withState,
      heldUntil,
      carries: carried.get(seq),
    }),
  );
  return { upTo, feed, rows };
}

/**
 * The readings-window stamp of an accepted change (readings-window.ts): an inspection's by its
 * row before and after; an event's by its inspection as the batch has left it so far (the
 * commands write the inspection before its event), or as stored; other entities: none.
 */
function heldOf(
  entity: EntityName,
  before: RowState | undefined,
  after: RowState,
  targets: ReadonlyMap<string, Target>,
): number | undefined {
  if (entity === "inspection") return heldUntilMs(before, after);
  if (entity !== "event") return undefined;
  const inspectionId = eventInspectionId(after.values);
  if (inspectionId === undefined) return undefined;
  return readingDateMs(targets.get(rowKey("inspection", inspectionId))?.state?.values);
}

/** What a Push check knows of a row. */
const facts = (state: RowState, scopeId: string, spec: EntitySpec): RowFacts => ({
  ...state,
  complete: isComplete(state, spec),
  scopeId,
});

/**
 * The merge of this change into a row never seen is the change's own state, all of it accepted
 * (merge.ts `applyChange`): an upsert without orset columns. Its row equals its feed payload.
 */
const isOwnState = (change: Change, spec: EntitySpec): boolean =>
  change.op === "upsert" &&
  Object.keys(change.payload).every((column) => spec.columns[column]?.type !== "orset");
