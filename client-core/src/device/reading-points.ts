/**
 * The device's table of reading points (replica version 8, issue 29): one small row per live
 * reading of the replica (ops/reading-points.ts `readingPoint`: the id, the hive, the time and
 * the five measurements), indexed by `[hiveId+at]`, so a hive page, its charts and the weight
 * alerts read a hive's readings as a few kilobytes instead of its rows (about 2 KB each: every
 * column with its stamp, the scope, the confirmed state).
 *
 * **Kept in step by a Dexie middleware**, not by each writer: every read-write transaction that
 * includes the inspections' table also includes this one (`transaction`), and every write to the
 * inspections' table writes the same ids here in the same transaction (`mutate`): a put of a live
 * reading puts its point, a put of anything else (a visit, a tombstone, a partial row) deletes
 * its id's point, a delete or a range deleted deletes the same keys. So the points cannot
 * disagree with the rows, whichever code writes them (the pull's merge, the device's own writes,
 * the readings window letting readings go, an upgrade), and a transaction that fails leaves
 * neither. Upgrades run before this table exists (a replica below version 8) are left to
 * version 8's upgrade, which makes the points of every row already there.
 */
import type {
  DBCore,
  DBCoreMutateRequest,
  DBCoreMutateResponse,
  DBCoreTable,
  Middleware,
  Table,
} from "dexie";
import { entities } from "../core/entities.ts";
import { type ReadingPoint, readingPoint } from "../ops/reading-points.ts";
import type { DeviceRow, TableSource } from "./replica-db.ts";

export const readingPointsTable = "readingPoints";
/** The table's Dexie store: by id, and a hive's points in time order. */
export const readingPointsStore = "id, [hiveId+at]";

/** A point as stored: its hive beside it. */
export interface StoredReadingPoint extends ReadingPoint {
  readonly hiveId: string;
}

const inspectionsTable = entities.inspection.table;

/** The stored point of a device row, or undefined when it has none (not a live reading). */
export function pointOfRow(row: DeviceRow): StoredReadingPoint | undefined {
  if (row.complete !== 1 || row.deleted) return undefined;
  const hiveId = row.values.hive_id;
  if (typeof hiveId !== "string") return undefined;
  const point = readingPoint(row.id, row.values);
  return point && { ...point, hiveId };
}

/** The points' table of a source (inside a transaction, bound to it). */
export const pointsTableOf = (src: TableSource): Table<StoredReadingPoint, string> =>
  src.table<StoredReadingPoint, string>(readingPointsTable);

/** A hive's points, oldest first (time, then id: the index's order). */
export async function readHivePoints(src: TableSource, hiveId: string): Promise<ReadingPoint[]> {
  const rows = await pointsTableOf(src)
    .where("[hiveId+at]")
    .between([hiveId, -Infinity], [hiveId, Infinity], true, true)
    .toArray();
  // The hive is the same on every point: the charts want the point alone.
  return rows.map(({ hiveId: _, ...point }) => point);
}

/** Version 8's upgrade: the points of the inspections already in the replica. */
export async function fillPoints(src: TableSource): Promise<void> {
  const points: StoredReadingPoint[] = [];
  await src.table<DeviceRow, string>(inspectionsTable).each((row) => {
    const p = pointOfRow(row);
    if (p) points.push(p);
  });
  await pointsTableOf(src).bulkPut(points);
}

const hasStore = (trans: unknown, name: string): boolean => {
  const names = (trans as { objectStoreNames?: DOMStringList }).objectStoreNames;
  return names?.contains(name) ?? false;
};

/** The same writes to the points as `req` makes to the inspections. */
function mirror(points: DBCoreTable, req: DBCoreMutateRequest): Promise<DBCoreMutateResponse>[] {
  const { trans } = req;
  switch (req.type) {
    case "add":
    case "put": {
      const put: StoredReadingPoint[] = [];
      const gone: string[] = [];
      for (const row of req.values as readonly DeviceRow[]) {
        const p = pointOfRow(row);
        if (p) put.push(p);
        else gone.push(row.id);
      }
      return [
        ...(put.length > 0 ? [points.mutate({ trans, type: "put", values: put })] : []),
        ...(gone.length > 0 ? [points.mutate({ trans, type: "delete", keys: gone })] : []),
      ];
    }
    case "delete":
      return [points.mutate({ trans, type: "delete", keys: req.keys })];
    case "deleteRange":
      return [points.mutate({ trans, type: "deleteRange", range: req.range })];
  }
}

/** The middleware (module comment); `db.use` it before the database opens. */
export const readingPointsMiddleware: Middleware<DBCore> = {
  stack: "dbcore",
  name: "readingPoints",
  create: (down) => ({
    ...down,
    transaction(stores, mode, options) {
      const scope =
        mode === "readwrite" &&
        stores.includes(inspectionsTable) &&
        !stores.includes(readingPointsTable) &&
        down.schema.tables.some((t) => t.name === readingPointsTable)
          ? [...stores, readingPointsTable]
          : stores;
      return down.transaction(scope, mode, options);
    },
    table(name) {
      const table = down.table(name);
      if (name !== inspectionsTable) return table;
      return {
        ...table,
        mutate(req) {
          // An upgrade below version 8 runs before the table exists: version 8 fills it.
          if (!hasStore(req.trans, readingPointsTable)) return table.mutate(req);
          const points = down.table(readingPointsTable);
          // Sent together (the requests of one transaction run in order). Dexie answers a request
          // that failed with `numFailures` rather than a rejection: a point not written fails this
          // write, so the transaction that made it is aborted with the rows it wrote.
          const rows = table.mutate(req);
          return Promise.all([rows, ...mirror(points, req)]).then(([result, ...side]) => {
            for (const s of side) {
              if (s.numFailures > 0) throw Object.values(s.failures)[0];
            }
            return result;
          });
        },
      };
    },
  }),
};
