/**
 * `createHivekeepClient`: the device half of Hivekeep in one object. Every contract operation
 * runs against the local replica (the same code as the server's, ops/), never the network, so
 * it works with no signal; the sync engine pushes and pulls in the background once started.
 *
 *   const client = await createHivekeepClient({ baseUrl: "https://hivekeep.example" });
 *   client.sync.start();
 *   await client.inspections.createInspection({ hiveId });
 *   client.live((c) => c.hives.listHives({})).subscribe({ next: render });
 */

import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import {
  Code,
  ConnectError,
  createClient,
  createRouterTransport,
  type Interceptor,
  type Transport,
} from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { AuthService, type Inspection, InspectionService, SyncService } from "@hivekeep/proto";
import { Dexie, liveQuery, type Observable } from "dexie";
import { v7 as uuidv7 } from "uuid";
import type { HiveAlert } from "../core/hive-alerts.ts";
import type { Clock } from "../core/hlc.ts";
import { chartSeriesSpan } from "../core/reading-series.ts";
import { defaultReadingDays } from "../core/readings-window.ts";
import { errorInterceptor } from "../ops/errors.ts";
import {
  type HiveHistory,
  hiveAlerts,
  hiveHistory,
  lastVisits,
  recentVisits,
} from "../ops/hive-history.ts";
import { localStats } from "../ops/local-stats.ts";
import { readOnlyInterceptor } from "../ops/read-only.ts";
import { bucketsOf } from "../ops/reading-series.ts";
import type { ReplicaStore } from "../ops/replica-store.ts";
import { type RecordClients, recordClients, recordServices } from "../ops/services.ts";
import type { OpsSession } from "../ops/session.ts";
import { answerJsonOptions } from "../protocol/json-options.ts";
import { createSyncClient } from "../sync/sync-client.ts";
import { type AccountRecord, lastAccount, rememberAccount } from "./accounts.ts";
import { DeviceClock } from "./device-clock.ts";
import { dexieStore } from "./dexie-store.ts";
import { broadcastPeers } from "./leadership.ts";
import { listNotices, noticesTable, type SyncNotice } from "./notices.ts";
import { devicePhotoHash } from "./photo-hash.ts";
import { type DevicePhotos, devicePhotos } from "./photos.ts";
import { readPushResponse } from "./push-delegate.ts";
import { type HiveSeries, readingSeriesCache, type SeriesOptions } from "./reading-series-cache.ts";
import { type RemovedRecords, removedRecords } from "./removed.ts";
import { entityTables, openReplicaDb, type ReplicaDb } from "./replica-db.ts";
import { metaKeys } from "./replica-sync.ts";
import { storageErrorInterceptor } from "./storage-error.ts";
import { SyncEngine, type SyncStatus, type SyncTransport, type Timers } from "./sync-engine.ts";
import { type WatchPace, watch } from "./watch.ts";
import { createWorkerPull } from "./worker-pull.ts";

export interface HivekeepClientOptions {
  /** Where the server is, e.g. `https://hivekeep.example` (or the page's origin). */
  readonly baseUrl: string;
  /** The bearer token; undefined (or absent) in single-user mode. */
  readonly getToken?: () => Promise<string | undefined>;
  /** Default: derived from the server, organization and user, so accounts never share one. */
  readonly dbName?: string;
  /** For Node: fake-indexeddb's `indexedDB` and `IDBKeyRange`. */
  readonly indexedDB?: IDBFactory;
  readonly IDBKeyRange?: typeof IDBKeyRange;
  readonly fetch?: typeof globalThis.fetch;
  /** Who the replica is for, when the caller knows it (skips WhoAmI). */
  readonly account?: { readonly organizationId: string; readonly userId: string };
  /** The wall clock and timers (tests inject fakes). */
  readonly now?: () => number;
  readonly timers?: Timers;
  readonly random?: () => number;
  /** Sync engine tuning (tests and benchmarks). */
  readonly pushBatch?: number;
  readonly pullLimit?: number;
  readonly debounceMs?: number;
  readonly intervalMs?: number;
  /**
   * Pull in a dedicated Worker, so a first sync never blocks the page (default: true where
   * `Worker` exists and the page runs in a window).
   */
  readonly pullInWorker?: boolean;
  /**
   * A read-only session (the hosted demo): every local write is refused with
   * `permission_denied`, as the server would, before it touches the replica.
   */
  readonly readOnly?: boolean;
  /**
   * Pull photos by reference and fetch each when shown (default true: devices/photos.ts). false:
   * photos travel in their rows through every first sync, as before issue 29 (the benchmark's
   * baseline).
   */
  readonly photoRefs?: boolean;
  /**
   * How many days back the photos of visits are fetched ahead after each sync (photos.ts
   * `keepRecent`), read at each sync; default `defaultKeepDays` (30).
   */
  readonly photoKeepDays?: () => number;
  /**
   * The readings window (core/readings-window.ts): the device pulls and keeps the readings of
   * the last this many days (default `defaultReadingDays`, 14); older ones are read from the
   * server as series. 0: every reading, as before issue 29.
   */
  readonly readingDays?: number;
}

export interface HivekeepClient extends RecordClients {
  /** The local services as a Connect transport: `createClient(HiveService, client.transport)`. */
  readonly transport: Transport;
  readonly organizationId: string;
  readonly userId: string;
  readonly dbName: string;
  /** The replica itself (for tools and tests). */
  readonly db: ReplicaDb;
  /**
   * The device's "now": its wall clock corrected by the offset to the server's clock measured
   * at the last Push or Pull (DeviceClock), the time the local services record with. A form's
   * default date comes from it, so a phone whose clock runs ahead does not propose a date the
   * services refuse as "in the future".
   */
  now(): Date;
  /**
   * A query over the local services that runs again whenever the replica's records change (in
   * this tab or another; not for the sync's own bookkeeping: outbox, quarantine, meta), as an
   * Observable (the app wraps it in `useLiveQuery`).
   */
  live<T>(query: (client: HivekeepClient) => Promise<T>): Observable<T>;
  readonly sync: {
    start(): void;
    stop(): void;
    syncNow(): Promise<void>;
    readonly status: SyncStatus;
    subscribe(listener: (status: SyncStatus) => void): () => void;
    retry(id: number): Promise<void>;
    discard(id: number): Promise<void>;
  };
  /**
   * What sync overrode or set aside of this account's work on this device (notices.ts), newest
   * first, until dismissed: `live()` re-runs on every change of them.
   */
  /** Records deleted (on another device) as the replica last held them, with when. */
  readonly removed: RemovedRecords;
  /**
   * Photos by reference (photos.ts): `resolve` gives what to show for a value of an
   * inspection's `photoKeys` (a data URL as it is; a reference from this device or fetched).
   */
  readonly photos: DevicePhotos;
  /**
   * Visits and readings apart (issue 29, ops/hive-history.ts): the app's reads beside the
   * contract's, which list and count readings as inspections.
   */
  readonly history: {
    /**
     * The hive page's read of one hive; with `alerts`, its weight alerts at that moment too
     * (the same as `alerts`, from the same pass over the hive's rows).
     */
    hive(
      hiveId: string,
      alerts?: { readonly now: Date; readonly thresholdKg: number | undefined },
    ): Promise<HiveHistory>;
    /** Each hive's last visit (RFC 3339); a hive never visited is absent. */
    lastVisits(hiveIds: readonly string[]): Promise<Map<string, string>>;
    recentVisits(count: number): Promise<Inspection[]>;
    /** Weight alerts of these hives at `now`; `thresholdKg` is the winter weight (unset: none). */
    alerts(
      hiveIds: readonly string[],
      now: Date,
      thresholdKg: number | undefined,
    ): Promise<Map<string, HiveAlert[]>>;
  };
  /**
   * A hive's measurements over years (issue 29, reading-series-cache.ts): day buckets, the
   * server's (cached for offline) before the readings window, the replica's within it.
   */
  readonly readings: {
    series(
      hiveId: string,
      fromMs: number,
      toMs: number,
      options?: SeriesOptions,
    ): Promise<HiveSeries>;
  };
  readonly notices: {
    list(): Promise<SyncNotice[]>;
    live(): Observable<SyncNotice[]>;
    dismiss(key: string): Promise<void>;
  };
  close(): Promise<void>;
}

const defaultDbName = (baseUrl: string, account: { organizationId: string; userId: string }) =>
  `hivekeep:${baseUrl}:${account.organizationId}:${account.userId}`;

function bearer(getToken: HivekeepClientOptions["getToken"]): Interceptor {
  return (next) => async (req) => {
    const token = await getToken?.();
    if (token) req.header.set("authorization", `Bearer ${token}`);
    return next(req);
  };
}

/**
 * A request that never reached the server (offline: fetch throws a TypeError) is `unavailable`,
 * as the sync client says; Connect's web transport would call it `unknown`. A cancelled one stays
 * as it is.
 */
function unreachableIsUnavailable(fetch: typeof globalThis.fetch): typeof globalThis.fetch {
  return async (input, init) => {
    try {
      return await fetch(input, init);
    } catch (err) {
      if (init?.signal?.aborted || (err instanceof Error && err.name === "AbortError")) throw err;
      throw ConnectError.from(err, Code.Unavailable);
    }
  };
}

/** Who the replica is for: given, asked of the server, or (offline) the last one seen here. */
async function findAccount(
  options: HivekeepClientOptions,
  remote: Transport,
): Promise<AccountRecord> {
  if (options.account) return { baseUrl: options.baseUrl, ...options.account };
  try {
    const who = await createClient(AuthService, remote).whoAmI({});
    const account = {
      baseUrl: options.baseUrl,
      organizationId: who.organization?.id ?? "",
      userId: who.user?.id ?? "",
    };
    await rememberAccount(account, options);
    return account;
  } catch (err) {
    const ce = ConnectError.from(err);
    if (ce.code !== Code.Unavailable && ce.code !== Code.DeadlineExceeded) throw ce;
    const known = await lastAccount(options.baseUrl, options);
    if (known === undefined) throw ce;
    return known;
  }
}

export async function createHivekeepClient(
  options: HivekeepClientOptions,
): Promise<HivekeepClient> {
  if (options.indexedDB) {
    // Dexie's live queries and cross-tab notices use the global dependencies.
    Dexie.dependencies.indexedDB = options.indexedDB;
    if (options.IDBKeyRange) Dexie.dependencies.IDBKeyRange = options.IDBKeyRange;
  }
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const remote = createConnectTransport({
    baseUrl,
    fetch: unreachableIsUnavailable(options.fetch ?? globalThis.fetch.bind(globalThis)),
    interceptors: [bearer(options.getToken)],
    jsonOptions: answerJsonOptions,
  });
  const account = await findAccount({ ...options, baseUrl }, remote);
  const dbName = options.dbName ?? defaultDbName(baseUrl, account);
  const db = openReplicaDb(dbName, options);
  /** The tables the local services read: a live query re-runs on a write to one of them. */
  const recordTables = entityTables(db).map((t) => t.name);
  await db.open();

  const meta = new Map((await db.meta.toArray()).map((m) => [m.key, m.value]));
  const storedNode = meta.get(metaKeys.node);
  const node =
    typeof storedNode === "string" ? storedNode : `d${uuidv7().replace(/-/g, "").slice(-16)}`;
  if (storedNode === undefined) {
    await db.meta.bulkPut([
      { key: metaKeys.node, value: node },
      { key: metaKeys.organizationId, value: account.organizationId },
      { key: metaKeys.userId, value: account.userId },
    ]);
  }
  const clock = new DeviceClock(
    {
      node,
      clock: meta.get(metaKeys.clock) as Clock | undefined,
      offsetMs: meta.get(metaKeys.offsetMs) as number | undefined,
    },
    options.now,
  );

  let token: string | undefined;
  const feedOptions = {
    photoRefs: options.photoRefs ?? true,
    readingDays: options.readingDays ?? defaultReadingDays,
  };
  const sync = createSyncClient({
    baseUrl,
    ...feedOptions,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    headers: (): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {}),
  });
  const feed = createClient(SyncService, remote);
  const transport: SyncTransport = {
    async token() {
      token = await options.getToken?.();
      return token;
    },
    async push(changes) {
      token = await options.getToken?.();
      return readPushResponse(await sync.push(changes));
    },
    async *pages(cursor, limit, signal) {
      token = await options.getToken?.();
      yield* sync.pages(cursor, limit, signal);
    },
    async *subscribe(cursor, signal) {
      for await (const poke of feed.subscribe({ cursor }, { signal })) {
        yield poke.heartbeat ? "" : poke.cursor;
      }
    },
  };

  const nav = (globalThis as { navigator?: Navigator }).navigator;
  const useWorker =
    options.pullInWorker ?? (typeof Worker !== "undefined" && typeof window !== "undefined");
  const worker = useWorker ? createWorkerPull(baseUrl, dbName, feedOptions) : undefined;
  const peers = broadcastPeers(`hivekeep-sync:${dbName}`);
  const engine: SyncEngine = new SyncEngine({
    db,
    transport,
    clock,
    lockName: `hivekeep-sync:${dbName}`,
    ...(peers ? { peers } : {}),
    ...(nav?.locks ? { locks: nav.locks } : {}),
    ...(nav?.storage ? { storage: nav.storage } : {}),
    ...(typeof window !== "undefined" ? { events: window } : {}),
    ...(typeof document !== "undefined"
      ? { isVisible: () => document.visibilityState === "visible" }
      : {}),
    ...(worker
      ? { pullInWorker: (limit, t, onProgress) => worker.pull(limit, t, onProgress) }
      : {}),
    ...(options.timers ? { timers: options.timers } : {}),
    ...(options.random ? { random: options.random } : {}),
    ...(options.pushBatch ? { pushBatch: options.pushBatch } : {}),
    ...(options.pullLimit ? { pullLimit: options.pullLimit } : {}),
    ...(options.debounceMs !== undefined ? { debounceMs: options.debounceMs } : {}),
    ...(options.intervalMs ? { intervalMs: options.intervalMs } : {}),
  });

  const photos = devicePhotos(
    db,
    async (inspectionId, ref) => (await feed.getPhoto({ inspectionId, ref })).dataUrl,
    () => clock.nowMs(),
  );
  const remoteInspections = createClient(InspectionService, remote);
  const readings = readingSeriesCache({
    db,
    async fetch(hiveId, fromMs, toMs) {
      const res = await remoteInspections.getReadingSeries({
        hiveId,
        from: timestampFromMs(fromMs),
        to: timestampFromMs(toMs),
        bucketDays: 1,
      });
      return bucketsOf(res);
    },
    now: () => clock.nowMs(),
    online: () => engine.status.online,
    readingDays: () => options.readingDays ?? defaultReadingDays,
  });
  const store: ReplicaStore = dexieStore(db, {
    clock,
    metaOnWrite: () => clock.meta(),
    afterWrite: () => engine.localWrite(),
  });
  const session: OpsSession = {
    store,
    stats: localStats(store),
    organizationId: account.organizationId,
    userId: account.userId,
    now: () => new Date(clock.nowMs()),
    newId: () => uuidv7(),
    stamp: () => clock.stamp(),
    photoHash: devicePhotoHash,
    async photoOf(inspectionId, ref) {
      const state = await photos.resolve(inspectionId, ref);
      if (state.kind === "ready") return state.src;
      if (state.reason === "gone") return undefined;
      throw new ConnectError(
        `a photo of inspection ${inspectionId} is not on this device and the server cannot be reached (${state.reason}): connect and try again`,
        Code.Unavailable,
      );
    },
  };
  const local = createRouterTransport(
    recordServices(() => session),
    {
      router: {
        interceptors: [
          // The device has no server log: an unexpected failure goes to the console.
          errorInterceptor((cause, procedure) =>
            console.error(
              `hivekeep: ${procedure}: ${cause instanceof Error ? (cause.stack ?? cause.message) : String(cause)}`,
            ),
          ),
          // Inner: a storage failure becomes its clear error before the mapping sees it.
          storageErrorInterceptor,
          readOnlyInterceptor(() => options.readOnly === true),
        ],
      },
    },
  );

  // After each sync that reached the feed's end, the leader fetches the photos of recent visits
  // and the long series of the hives with readings (one run at a time), so they are there
  // offline and a scale's hive page draws years at once.
  let keeping: Promise<unknown> | undefined;
  let keptAfter: Date | undefined;
  const unsubscribeKeep = engine.subscribe((status) => {
    const synced = status.lastSyncedAt;
    if (!status.leader || !status.online || synced === undefined || keeping) return;
    if (keptAfter !== undefined && synced <= keptAfter) return;
    keptAfter = synced;
    keeping = photos
      .keepRecent(options.photoKeepDays?.())
      .catch(() => 0)
      .then(() => readings.keepAhead(...chartSeriesSpan(clock.nowMs())))
      .catch(() => 0)
      .finally(() => {
        keeping = undefined;
      });
  });

  // The outbox is shared by every tab: a write in any of them is pushed by the leader.
  const outboxWatch = liveQuery(() => db.outbox.count()).subscribe({
    next: (pending) => engine.outboxChanged(pending),
    error: () => {},
  });
  await engine.refresh(true);

  // While a pull merges page after page (this tab's, or the leading tab's as heard through
  // `peers`), a screen re-reads the replica at most every 2 s, and never more than half of the
  // time (watch.ts): the pull's writes are not starved.
  const pullPace: WatchPace = {
    gapMs: () => (engine.status.pulling === undefined ? 0 : 2000),
    subscribe: (listener) => engine.subscribe(() => listener()),
  };

  const client: HivekeepClient = {
    ...recordClients((service) => createClient(service, local)),
    transport: local,
    organizationId: account.organizationId,
    userId: account.userId,
    dbName,
    db,
    now: session.now,
    live: (query) => watch(dbName, () => query(client), { tables: recordTables, pace: pullPace }),
    sync: {
      start: () => engine.start(),
      stop: () => engine.stop(),
      syncNow: () => engine.syncNow(),
      get status() {
        return engine.status;
      },
      subscribe: (listener) => engine.subscribe(listener),
      retry: (id) => engine.retry(id),
      discard: (id) => engine.discard(id),
    },
    removed: removedRecords(store, account.organizationId, node),
    photos,
    history: {
      hive: (hiveId, alerts) =>
        store.read((r) =>
          hiveHistory(
            r,
            hiveId,
            account.organizationId,
            alerts && { nowMs: alerts.now.getTime(), thresholdKg: alerts.thresholdKg },
          ),
        ),
      lastVisits: (hiveIds) => store.read((r) => lastVisits(r, hiveIds)),
      recentVisits: (count) => store.read((r) => recentVisits(r, count, account.organizationId)),
      alerts: (hiveIds, now, thresholdKg) =>
        store.read((r) => hiveAlerts(r, hiveIds, now.getTime(), thresholdKg)),
    },
    readings,
    notices: {
      list: () => listNotices(db),
      live: () => watch(dbName, () => listNotices(db), { tables: [noticesTable] }),
      dismiss: async (key) => {
        await db.notices.delete(key);
      },
    },
    async close() {
      engine.stop();
      unsubscribeKeep();
      await keeping;
      worker?.terminate();
      outboxWatch.unsubscribe();
      peers?.close();
      db.close();
    },
  };
  return client;
}
