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

/** What the leading tab tells the others of its sync (SyncStatus's fields of the same names). */
export interface LeaderState {
  readonly pulling: PullingState;
  /** The leader's last contact with the server worked. */
  readonly online: boolean;
}

/**
 * The other tabs of one replica. The leader tells them how its sync is going: its pull's
 * progress, so their sync bar shows a first sync's progress too and their screens re-read the
 * replica at the pace the leader's do while the pull merges (create-client.ts `pullPace`: else
 * every open tab re-ran its screen's reads after every page the leader merged); and whether it
 * reaches the server, which only the leader learns.
 */
export interface SyncPeers {
  tell(state: LeaderState): void;
  /** `listener` hears what the leader tells; returns the unsubscription. */
  hear(listener: (state: LeaderState) => void): () => void;
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
  const listeners = new Set<(state: LeaderState) => void>();
  channel.onmessage = (event: MessageEvent) => {
    const state = leaderStateOf(event.data);
    if (state === undefined) return;
    for (const listener of listeners) listener(state);
  };
  return {
    tell: ({ pulling, online }) => channel.postMessage({ pulling: pulling ?? "none", online }),
    hear(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => channel.close(),
  };
}

/** The state a message carries; undefined when it is not one. */
function leaderStateOf(data: unknown): LeaderState | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const { pulling: p, online } = data as { pulling?: unknown; online?: unknown };
  if (typeof online !== "boolean") return undefined;
  if (p === "none") return { pulling: undefined, online };
  if (typeof p !== "object" || p === null) return undefined;
  const { changes, left } = p as { changes?: unknown; left?: unknown };
  if (typeof changes !== "number" || !(left === undefined || typeof left === "number")) {
    return undefined;
  }
  return { pulling: { changes, left }, online };
}
