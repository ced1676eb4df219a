/**
 * The pull Worker (browsers): runs `pullFeed` on its own connection to the replica, so merging
 * a first sync's tens of thousands of rows never blocks the page. The page asks with
 * `PullRequestMessage` and gets a `PullReplyMessage`; Dexie tells the page's live queries about
 * the rows it wrote (its change events cross contexts).
 */
import { type Code, ConnectError } from "@connectrpc/connect";
import { createFeedClient } from "../sync/feed-client.ts";
import { type PullProgress, type PullResult, pullFeed } from "./pull-feed.ts";
import { openReplicaDb, type ReplicaDb } from "./replica-db.ts";

export interface PullRequestMessage {
  readonly id: number;
  readonly baseUrl: string;
  readonly dbName: string;
  readonly limit: number;
  readonly token: string | undefined;
  /** Photos by reference (HivekeepClientOptions.photoRefs). */
  readonly photoRefs: boolean;
  /** The readings window (HivekeepClientOptions.readingDays). */
  readonly readingDays: number;
}

export type PullReplyMessage =
  | { readonly id: number; readonly result: PullResult }
  /** After each page merged, before the result. */
  | { readonly id: number; readonly progress: PullProgress }
  | { readonly id: number; readonly error: { readonly code: Code; readonly message: string } };

const dbs = new Map<string, ReplicaDb>();

async function handle(request: PullRequestMessage): Promise<PullReplyMessage> {
  try {
    let db = dbs.get(request.dbName);
    if (db === undefined) {
      db = openReplicaDb(request.dbName);
      await db.open();
      dbs.set(request.dbName, db);
    }
    const { token } = request;
    const sync = createFeedClient({
      baseUrl: request.baseUrl,
      photoRefs: request.photoRefs,
      readingDays: request.readingDays,
      headers: (): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {}),
    });
    const result = await pullFeed(
      db,
      (cursor, limit) => sync.pages(cursor, limit),
      request.limit,
      undefined,
      (progress) => scope.postMessage({ id: request.id, progress }),
    );
    return { id: request.id, result };
  } catch (err) {
    const ce = ConnectError.from(err);
    return { id: request.id, error: { code: ce.code, message: ce.rawMessage } };
  }
}

const scope = globalThis as unknown as {
  onmessage: ((e: MessageEvent<PullRequestMessage>) => void) | null;
  postMessage(message: PullReplyMessage): void;
};
scope.onmessage = (e) => {
  void handle(e.data).then((reply) => scope.postMessage(reply));
};

export type { Code };
