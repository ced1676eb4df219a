/**
 * InspectionService.CreateReadings (beside the contract): a scale's readings in one call, its
 * backlog included (past dates). Each reading is what CreateInspection with measurement fields
 * writes, through the same command (`createInspection`: validation, the hive's apiary and queen
 * as of the date, the INSPECTION event); here the hive's placements and queens are read once per
 * hive, not once per reading, and every change goes to the store in one apply.
 *
 * All or nothing: a reading the command refuses (or whose hive does not exist) fails the whole
 * call, and the error names every bad reading by its index and field (a ReadingRejection
 * detail). A reading with an idempotency key gets an id derived from its hive and key (UUID v5):
 * sent again, in a retried or an overlapping batch, or twice in one batch, it is found, not
 * written, and answered ALREADY_STORED with its id. The reading row is the key's record, in the
 * same transaction as its write by construction, and kept as long as the reading is (a scale's
 * backlog may be older than the 24 hours the Idempotency-Key header is remembered). A stored
 * reading stays as it is, corrections and deletion included: it is not compared with the one
 * sent again. One key twice in one call with other values (date or a measurement) is refused:
 * the scale reused a key.
 */
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  CreateInspectionRequestSchema,
  type CreateReadingsRequest,
  type CreateReadingsResponse,
  CreateReadingsResponseSchema,
  type Reading,
  ReadingRejectionSchema,
  ReadingStatus,
} from "@hivekeep/proto";
import { parse as uuidParse, v5 as uuidv5 } from "uuid";
import type { Change } from "../core/change.ts";
import { createInspection, type InspectionFields } from "../core/commands/inspection.ts";
import { DomainError, invalid } from "../core/domain-error.ts";
import { idempotencyKeyProblem } from "../core/idempotency-key.ts";
import { maxReadingsPerCall } from "../core/limits.ts";
import { type HiveTimeline, hiveTimeline, timelineAt } from "./hive-at.ts";
import { commandContext, type OpsSession } from "./session.ts";
import { settled } from "./settled.ts";
import { isoOr } from "./timestamps.ts";

/** The namespace of reading ids derived from (hive, idempotency key). */
const readingIdNamespace = "5b0c2c2e-8a4e-4f0e-9d0a-6a1f3c2b7e29";

/** The namespace's bytes, parsed once (uuid parses a string namespace on every call). */
const readingIdNamespaceBytes = uuidParse(readingIdNamespace);

/** The id of the reading a hive's scale sent under `key`. */
export const readingId = (hiveId: string, key: string): string =>
  uuidv5(`${hiveId}\u0000${key}`, readingIdNamespaceBytes);

/** A reading's inspection fields besides its measurements: CreateInspection's defaults. */
const noStockCard: InspectionFields = create(CreateInspectionRequestSchema);

/** The measurement fields of a reading. */
const measurements = [
  "weightKg",
  "tempHive",
  "tempOutside",
  "humidityHive",
  "humidityOutside",
] as const;

interface Problem {
  readonly index: number;
  readonly field: string;
  readonly code: string;
  readonly message: string;
}

const codeNames: Record<DomainError["code"], string> = {
  invalid: "invalid_argument",
  not_found: "not_found",
  precondition: "failed_precondition",
  unauthenticated: "unauthenticated",
  permission_denied: "permission_denied",
  already_exists: "already_exists",
  resource_exhausted: "resource_exhausted",
};
const connectCodes: Record<string, Code> = {
  invalid_argument: Code.InvalidArgument,
  not_found: Code.NotFound,
  failed_precondition: Code.FailedPrecondition,
};

/** A reading sent twice in one call under one key with other values: what differs. */
function differs(
  first: Reading,
  firstDate: string,
  again: Reading,
  date: string,
): string | undefined {
  if (firstDate !== date) return "date";
  return measurements.find((field) => first[field] !== again[field]);
}

export async function createReadings(
  s: OpsSession,
  req: CreateReadingsRequest,
): Promise<CreateReadingsResponse> {
  const n = req.readings.length;
  if (n > maxReadingsPerCall) {
    throw invalid(
      "readings",
      `${n} readings in one call, at most ${maxReadingsPerCall} are allowed: send them in several calls`,
    );
  }
  const cc = commandContext(s);
  const problems: Problem[] = [];
  const refuse = (index: number, err: unknown): void => {
    if (!(err instanceof DomainError)) throw err;
    const field = err.field ? `readings[${index}].${err.field}` : `readings[${index}]`;
    problems.push({ index, field, code: codeNames[err.code], message: err.message });
  };

  // Dates, keys and ids, before anything is read.
  const items = req.readings.map((reading, index) => {
    let date = "";
    try {
      date = isoOr(reading.date, cc.now, "date");
    } catch (err) {
      refuse(index, err);
    }
    const key = reading.idempotencyKey;
    let id: string | undefined;
    if (key !== "") {
      const problem = idempotencyKeyProblem(key, "idempotencyKey");
      if (problem) refuse(index, invalid("idempotencyKey", problem));
      else if (reading.hiveId !== "") id = readingId(reading.hiveId, key);
    }
    return { index, reading, date, id };
  });

  return s.store.write(async (w) => {
    const keyed = [...new Set(items.flatMap((i) => (i.id === undefined ? [] : [i.id])))];
    const hiveIds = [...new Set(items.map((i) => i.reading.hiveId).filter((h) => h !== ""))];
    const [stored, timelines] = await settled([
      w.scopesOf("inspection", keyed),
      settled(hiveIds.map((h) => hiveTimeline(w, h))),
    ]);
    const timelineOf = new Map<string, HiveTimeline | undefined>(
      hiveIds.map((h, i) => [h, timelines[i]]),
    );
    const changes: Change[] = [];
    /** The first reading of this call under each derived id: its values and date. */
    const firstOf = new Map<string, { reading: Reading; date: string }>();
    const refusedEarly = new Set(problems.map((p) => p.index));
    const results = items.map(({ index, reading, date, id }) => {
      if (refusedEarly.has(index)) return answer("", ReadingStatus.UNSPECIFIED);
      if (id !== undefined) {
        const first = firstOf.get(id);
        const field = first && differs(first.reading, first.date, reading, date);
        if (field !== undefined) {
          refuse(
            index,
            new DomainError(
              "precondition",
              `the idempotencyKey was used for another reading of this hive in this call (its ${field} differs)`,
              "idempotencyKey",
            ),
          );
          return answer(id, ReadingStatus.UNSPECIFIED);
        }
        if (first || stored.has(id)) return answer(id, ReadingStatus.ALREADY_STORED);
        firstOf.set(id, { reading, date });
      }
      try {
        const timeline = timelineOf.get(reading.hiveId);
        const at = timeline && timelineAt(timeline, date);
        const hive = at && { id: reading.hiveId, apiaryId: at.apiaryId, queenId: at.queenId };
        // Object.assign, not `{...noStockCard, …}`: a spread followed by more properties cost a
        // few µs a reading in V8.
        const made = createInspection(
          cc,
          hive,
          Object.assign({}, noStockCard, {
            hiveId: reading.hiveId,
            date,
            id,
            weightKg: reading.weightKg,
            tempHive: reading.tempHive,
            tempOutside: reading.tempOutside,
            humidityHive: reading.humidityHive,
            humidityOutside: reading.humidityOutside,
          }),
        );
        changes.push(...made.changes);
        return answer(made.id, ReadingStatus.CREATED);
      } catch (err) {
        refuse(index, err);
        return answer("", ReadingStatus.UNSPECIFIED);
      }
    });
    if (problems.length > 0) throw rejection(problems);
    await w.apply(changes);
    const created = results.filter((r) => r.status === ReadingStatus.CREATED).length;
    return create(CreateReadingsResponseSchema, {
      results,
      created,
      alreadyStored: results.length - created,
    });
  });
}

/**
 * A reading's result. At module level, not a closure made per reading: tsx (which runs the
 * server) names every function it creates, a cost per closure that showed in a batch of 1,000.
 */
const answer = (inspectionId: string, status: ReadingStatus) => ({ inspectionId, status });

/**
 * Every bad reading, in order: the message names the first few, the ReadingRejection detail all
 * of them. The code is theirs when they share one (every hive unknown: not_found), else
 * invalid_argument.
 */
function rejection(unordered: readonly Problem[]): ConnectError {
  const problems = [...unordered].sort((a, b) => a.index - b.index);
  const codes = new Set(problems.map((p) => p.code));
  const [only] = codes;
  const code =
    codes.size === 1 && only ? (connectCodes[only] ?? Code.InvalidArgument) : Code.InvalidArgument;
  const shown = problems
    .slice(0, 5)
    .map((p) => `${p.field}: ${p.message}`)
    .join("; ");
  const more = problems.length > 5 ? `; and ${problems.length - 5} more` : "";
  const count = `${problems.length} reading${problems.length === 1 ? "" : "s"} refused`;
  return new ConnectError(`${count}, nothing written: ${shown}${more}`, code, undefined, [
    { desc: ReadingRejectionSchema, value: { problems: problems.map((p) => ({ ...p })) } },
  ]);
}
