/**
 * Fan-out of "the feed of tenant X advanced to seq N" and of "a credential of user U in
 * tenant X ended". Writers NOTIFY inside their transaction (tenant-write.ts; the revoking
 * store functions of auth/), so a notification is delivered only once its change is
 * committed; every server process LISTENs once and wakes its local subscribers. On Postgres
 * this crosses processes; PGlite delivers notifications in process. A lost poke is harmless
 * (devices Pull); a lost credential notification leaves a stream open until its next
 * heartbeat re-checks the credential (rpc/subscribe.ts).
 */
import type { Db } from "../db/db.ts";

export const feedChannel = "hivekeep_feed";

/**
 * Credentials that ended: payload `<organization id>:<user id>` when every credential of the
 * user in that organization ended (the member was removed), `<organization id>:<user id>:<token
 * hash>` when one did (a session or an API key revoked), so only the streams that hold it check
 * (not every visitor of the demo, who share one user, at each demo Logout). Ids never hold a
 * colon (isEntityId), hashes are hex. A channel of its own, so a server of the previous
 * version, which reads every payload on feedChannel as a feed position, never sees one during
 * a rolling deploy.
 */
export const credentialChannel = "hivekeep_credential_ended";

/** The payload of credentialChannel for every credential of a user in an organization. */
export const credentialPayload = (organizationId: string, userId: string) =>
  `${organizationId}:${userId}`;

export type FeedListener = (seq: number) => void;

/** A stream's interest in its own credential: called when it may have ended. */
export interface CredentialWatch {
  readonly userId: string;
  /** The hash of the stream's token; absent for a local caller. */
  readonly tokenHash: string | undefined;
  onEnded(): void;
}

export interface FeedNotifier {
  /**
   * Calls listener whenever the tenant's feed advances, and `credential.onEnded` whenever a
   * credential of that user in the tenant ended; returns the unsubscribe.
   */
  subscribe(
    organizationId: string,
    listener: FeedListener,
    credential?: CredentialWatch,
  ): () => void;
  /** How many listeners are registered (ended streams must leave none behind). */
  size(): number;
  close(): Promise<void>;
}

interface Entry {
  readonly listener: FeedListener;
  readonly credential: CredentialWatch | undefined;
}

export async function startFeedNotifier(db: Db): Promise<FeedNotifier> {
  const entries = new Map<string, Set<Entry>>();
  const unlistenFeed = await db.listen(feedChannel, (payload) => {
    const sep = payload.lastIndexOf(":");
    const org = payload.slice(0, sep);
    const seq = Number(payload.slice(sep + 1));
    for (const e of entries.get(org) ?? []) e.listener(seq);
  });
  let unlistenCredentials: () => Promise<void>;
  try {
    unlistenCredentials = await db.listen(credentialChannel, (payload) => {
      const [org = "", user, tokenHash] = payload.split(":");
      for (const e of entries.get(org) ?? []) {
        const c = e.credential;
        if (c === undefined || c.userId !== user) continue;
        if (tokenHash === undefined || tokenHash === c.tokenHash) c.onEnded();
      }
    });
  } catch (err) {
    await unlistenFeed();
    throw err;
  }
  return {
    subscribe(organizationId, listener, credential) {
      const set = entries.get(organizationId) ?? new Set();
      const entry: Entry = { listener, credential };
      set.add(entry);
      entries.set(organizationId, set);
      return () => {
        set.delete(entry);
        if (set.size === 0) entries.delete(organizationId);
      };
    },
    size() {
      let n = 0;
      for (const set of entries.values()) n += set.size;
      return n;
    },
    async close() {
      entries.clear();
      await Promise.all([unlistenFeed(), unlistenCredentials()]);
    },
  };
}
