/**
 * TransferService (issue 26) over a replica: the Hivekeep backup of the caller's organization as
 * a stream of text chunks, and the import of a file through the one import plan
 * (core/transfer/plan.ts). The server mounts it over its SQL store, a device over its replica (an
 * import there goes to the replica and the outbox, so Push brings it to every device), and the
 * operators' CLI calls it in process.
 */
import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  ExportBackupResponseSchema,
  ImportRecordsResponseSchema,
  type TransferService,
} from "@hivekeep/proto";
import { rowKey } from "../core/change.ts";
import { type EntityName, entityNames } from "../core/entities.ts";
import { isPhotoRef } from "../core/photo-ref.ts";
import { type BackupSource, recordOf, writeBackup } from "../core/transfer/backup.ts";
import { isTimeZone } from "../core/transfer/csv.ts";
import { idsToLookUp, type OrganizationFacts, planImport } from "../core/transfer/plan.ts";
import {
  type FileFormat,
  fileFormat,
  fileReaders,
  formatHints,
  type KnownPlaces,
  needsKnownPlaces,
} from "../core/transfer/read-file.ts";
import type { ImportProblem, ReadFile, RecordRow, RecordSet } from "../core/transfer/record-set.ts";
import { invalidArgument } from "./errors.ts";
import type { Filter, ListQuery } from "./query.ts";
import type { ReplicaReader } from "./replica-store.ts";
import { commandContext, type OpsSession, type SessionOf } from "./session.ts";

/** Records per page the export reads; inspections (up to 20 photos each) fewer. */
const pageSize = (entity: EntityName): number => (entity === "inspection" ? 25 : 500);

/** The size the export gathers its chunks to (UTF-16 code units) before sending one. */
export const exportChunkLength = 256 * 1024;

/**
 * What the backup carries of an entity, in pages: every live record the caller may read (of
 * personal tasks only the caller's own), every treatment (deleted ones are the register's trail)
 * and, after the live events, the tombstoned TREATMENT events.
 */
/**
 * Records with the photos a device holds by reference (core/photo-ref.ts) as the photos
 * themselves, as a backup carries them: read from the device or fetched (an export that cannot
 * get one fails, unavailable, rather than write a file without it); a photo removed meanwhile is
 * left out. Records with no reference are answered as they are.
 */
async function withPhotos(
  s: OpsSession,
  entity: EntityName,
  records: RecordRow[],
): Promise<RecordRow[]> {
  const photoOf = s.photoOf;
  if (photoOf === undefined || entity !== "inspection") return records;
  return Promise.all(
    records.map(async (record) => {
      const keys = record.photo_keys;
      if (!Array.isArray(keys) || !keys.some((k) => isPhotoRef(String(k)))) return record;
      const photos = await Promise.all(
        keys.map((k) => (isPhotoRef(String(k)) ? photoOf(record.id, String(k)) : String(k))),
      );
      return { ...record, photo_keys: photos.filter((p) => p !== undefined) };
    }),
  );
}

function backupSource(s: OpsSession, name: string): BackupSource {
  const readable: Filter = { readableBy: s.userId };
  async function* pagesOf(entity: EntityName, query: Omit<ListQuery, "offset" | "limit">) {
    const limit = pageSize(entity);
    // Keyset paging in id order: each page one read from where the last one ended.
    for (let afterId = ""; ; ) {
      const { rows } = await s.store.read((r) => r.list(entity, { ...query, afterId, limit }));
      if (rows.length > 0)
        yield await withPhotos(
          s,
          entity,
          rows.map((row) => recordOf(entity, row)),
        );
      const last = rows.at(-1);
      if (rows.length < limit || last === undefined) return;
      afterId = last.id;
    }
  }
  return {
    organization: { id: s.organizationId, name },
    exportedAt: s.now().toISOString(),
    async *pages(entity) {
      const byId = { orderBy: [{ column: "id" }] };
      yield* pagesOf(entity, {
        ...byId,
        where: [readable],
        ...(entity === "treatment" ? { evenDeleted: true } : {}),
      });
      if (entity === "event") {
        for await (const page of pagesOf(entity, {
          ...byId,
          where: [readable, { column: "ref_entity", eq: "treatment" }],
          evenDeleted: true,
        })) {
          const trail = page.filter((row) => row.deleted === true);
          if (trail.length > 0) yield trail;
        }
      }
    },
    byIds: (entity, ids) =>
      s.store
        .read(async (r) => {
          const rows = await Promise.all(ids.map((id) => r.get(entity, id, { evenDeleted: true })));
          return rows.flatMap((row) => (row === undefined ? [] : [recordOf(entity, row)]));
        })
        .then((records) => withPhotos(s, entity, records)),
  };
}

/** The backup of the session's organization as text chunks of about `exportChunkLength`. */
export async function* exportBackup(s: OpsSession): AsyncGenerator<string> {
  const name = (await s.organizationName?.()) ?? "";
  let pending = "";
  for await (const part of writeBackup(backupSource(s, name))) {
    pending += part;
    if (pending.length >= exportChunkLength) {
      yield pending;
      pending = "";
    }
  }
  if (pending !== "") yield pending;
}

/** The organization's records among the ids a file names (live or deleted), with their scopes. */
async function organizationFacts(r: ReplicaReader, records: RecordSet): Promise<OrganizationFacts> {
  const rows = new Map<string, { scopeId: string }>();
  for (const [entity, ids] of idsToLookUp(records)) {
    for (const [id, scopeId] of await r.scopesOf(entity, [...ids])) {
      rows.set(rowKey(entity, id), { scopeId });
    }
  }
  return { rows };
}

async function knownPlaces(r: ReplicaReader): Promise<KnownPlaces> {
  const all = { orderBy: [{ column: "id" }] };
  const [apiaries, hives, placements, queens] = await Promise.all([
    r.list("apiary", all),
    r.list("hive", all),
    r.list("placement", all),
    r.list("queen", all),
  ]);
  const text = (v: unknown) => (typeof v === "string" ? v : "");
  return {
    apiaries: apiaries.rows.map((a) => ({ id: a.id, name: text(a.values.name) })),
    hives: hives.rows.map((h) => ({
      id: h.id,
      name: text(h.values.name),
      apiary_id: text(h.values.apiary_id),
    })),
    // An inspection of a known hive freezes the apiary and queen of its date.
    placements: placements.rows,
    queens: queens.rows,
  };
}

export interface ImportRequest {
  readonly content: string;
  readonly dryRun: boolean;
  /** A format hint (`formatHints`), "" = detect. */
  readonly format: string;
  /** The importer's IANA time zone for days and times without one; "" = UTC. */
  readonly timeZone?: string;
}

export interface ImportOutcome {
  readonly format: FileFormat;
  readonly counts: readonly { entity: EntityName; created: number; existing: number }[];
  readonly problems: readonly ImportProblem[];
  readonly notCarried: ReadFile["notCarried"];
  readonly written: boolean;
}

/** How many problems the error of a refused import names. */
const namedProblems = 3;

/**
 * Reads the file and plans its import; a real import writes the plan in one write of the
 * replica (the plan is made inside it, so it sees what it writes over). A file with any problem
 * writes nothing: a dry run answers the problems, a real import throws `invalid_argument`.
 */
export async function importRecords(s: OpsSession, req: ImportRequest): Promise<ImportOutcome> {
  const format = fileFormat(req.content, req.format);
  if (format === undefined) {
    throw invalidArgument(
      `format ${JSON.stringify(req.format.slice(0, 40))} is unknown; expected "" (detect) or one of ${formatHints.join(", ")}`,
    );
  }
  const reader = await fileReaders[format]();
  const timeZone = req.timeZone === undefined || req.timeZone === "" ? "UTC" : req.timeZone;
  if (!isTimeZone(timeZone)) {
    throw invalidArgument(
      `timeZone ${JSON.stringify(timeZone.slice(0, 40))} is not a time zone (e.g. Europe/Berlin)`,
    );
  }
  const cc = commandContext(s);
  const known: KnownPlaces = needsKnownPlaces(format)
    ? await s.store.read(knownPlaces)
    : { apiaries: [], hives: [] };
  const file = reader(req.content, known, { ...cc, timeZone });
  const outcome = (
    problems: readonly ImportProblem[],
    counts: ImportOutcome["counts"],
    written: boolean,
  ): ImportOutcome => ({ format, counts, problems, notCarried: file.notCarried, written });
  const countsOf = (plan: ReturnType<typeof planImport>) =>
    entityNames.map((entity) => ({ entity, ...plan.counts[entity] }));

  let result: ImportOutcome;
  if (file.problems.length > 0) {
    result = outcome(file.problems, [], false);
  } else if (req.dryRun) {
    const plan = await s.store.read(async (r) =>
      planImport(file, await organizationFacts(r, file.records), cc),
    );
    result = outcome(plan.problems, countsOf(plan), false);
  } else {
    const plan = await s.store.write(async (w) => {
      const planned = planImport(file, await organizationFacts(w, file.records), cc);
      if (planned.problems.length === 0) await w.apply(planned.changes);
      return planned;
    });
    result = outcome(plan.problems, countsOf(plan), plan.problems.length === 0);
  }
  if (!req.dryRun && result.problems.length > 0) {
    const n = result.problems.length;
    const first = result.problems.slice(0, namedProblems).map((p) => p.message);
    throw invalidArgument(
      `the file was not imported, it has ${n} problem${n === 1 ? "" : "s"}: ${first.join("; ")}` +
        (n > namedProblems ? `; and ${n - namedProblems} more (a dry run lists them all)` : ""),
    );
  }
  return result;
}

export function transferService(sessionOf: SessionOf): ServiceImpl<typeof TransferService> {
  return {
    async *exportBackup(_req, ctx) {
      for await (const chunk of exportBackup(sessionOf(ctx))) {
        yield create(ExportBackupResponseSchema, { chunk });
      }
    },

    async importRecords(req, ctx) {
      const r = await importRecords(sessionOf(ctx), req);
      return create(ImportRecordsResponseSchema, {
        format: r.format,
        counts: r.counts.map((c) => ({ ...c })),
        problems: r.problems.map((p) => ({
          line: p.line ?? 0,
          column: p.column ?? "",
          entity: p.entity ?? "",
          id: p.id ?? "",
          path: p.path ?? "",
          message: p.message,
        })),
        notCarried: Object.entries(r.notCarried).map(([field, rows]) => ({ field, rows })),
        written: r.written,
      });
    },
  };
}
