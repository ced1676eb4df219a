/**
 * One sync leader per replica across tabs: the tab holding the Web Lock `name` runs the
 * background sync; when it closes (or stops), the lock and the lead pass to a waiting tab.
 * Without Web Locks (Node, tests) a client leads itself.
 */

/**
 * Runs `lead` once this client holds the lock (at once without `locks`). The function returned
 * gives the lead up, or stops waiting for it; `lead` never runs after it.
 */
export function seekLeadership(
  locks: LockManager | undefined,
  name: string,
  lead: () => void,
): () => void {
  if (locks === undefined) {
    lead();
    return () => {};
  }
  const waiting = new AbortController();
  let resigned = false;
  let release: (() => void) | undefined;
  locks
    .request(
      name,
      { signal: waiting.signal },
      () =>
        // Held until released: the lock is this tab's as long as the promise is pending.
        new Promise<void>((resolve) => {
          release = resolve;
          if (resigned) resolve();
          else lead();
        }),
    )
    .catch(() => {});
  return () => {
    resigned = true;
    waiting.abort();
    release?.();
  };
}

/** A pull of many pages under way: the changes merged so far, and about how many are left. */
export type PullingState =
  | { readonly changes: number; readonly left: number | undefined }
  | undefined;

/**
 * The other tabs of one replica. The leader tells them how its pull is going (SyncStatus
 * `pulling`), so their sync bar shows a first sync's progress too, and their screens re-read
 * the replica at the pace the leader's do while the pull merges (create-client.ts `pullPace`:
 * else every open tab re-ran its screen's reads after every page the leader merged).
 */
export interface SyncPeers {
  tell(pulling: PullingState): void;
  /** `listener` hears what the leader tells; returns the unsubscription. */
  hear(listener: (pulling: PullingState) => void): () => void;
  close(): void;
}

/**
 * The tabs of a replica over a BroadcastChannel named `name` (it reaches the other tabs of the
 * origin, never this one); undefined where there is none. A message not of this shape is
 * ignored. In Node the channel does not keep the process alive.
 */
export function broadcastPeers(name: string): SyncPeers | undefined {
  if (typeof BroadcastChannel === "undefined") return undefined;
  const channel = new BroadcastChannel(name);
  (channel as { unref?: () => void }).unref?.();
  const listeners = new Set<(pulling: PullingState) => void>();
  channel.onmessage = (event: MessageEvent) => {
    const pulling = pullingOf(event.data);
    if (pulling === null) return;
    for (const listener of listeners) listener(pulling);
  };
  return {
    tell: (pulling) => channel.postMessage({ pulling: pulling ?? "none" }),
    hear(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => channel.close(),
  };
}

/** The state a message carries; null when it is not one. */
function pullingOf(data: unknown): PullingState | null {
  if (typeof data !== "object" || data === null || !("pulling" in data)) return null;
  const p = data.pulling;
  if (p === "none") return undefined;
  if (typeof p !== "object" || p === null) return null;
  const { changes, left } = p as { changes?: unknown; left?: unknown };
  if (typeof changes !== "number" || !(left === undefined || typeof left === "number")) {
    return null;
  }
  return { changes, left };
}
