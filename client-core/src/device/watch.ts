/**
 * Live queries over the local operations: a query that calls the local services (which read the
 * replica through Dexie, behind a Connect transport) runs again whenever this replica changes,
 * in this tab or another (Dexie's `storagemutated` event, which crosses tabs). Dexie's own
 * `liveQuery` cannot see reads made behind the transport's promises, so this watches the whole
 * replica, or the tables named in `options.tables`: a write to any of them re-runs the query
 * (the device's records: a write only the sync keeps for itself, such as a Push's
 * acknowledgement emptying the outbox, re-runs nothing). Runs never overlap; a change during a run causes one
 * more. Every run's answer is delivered, even when a change arrived meanwhile: while a first sync
 * merges page after page, a screen whose query takes longer than a page shows answers that lag a
 * little instead of none until the sync ends. The result is an Observable, which React wraps with dexie-react-hooks' `useObservable`.
 *
 * With a `pace` (the sync engine's, while a long pull merges page after page), a run caused by a
 * change waits until `pace.gapMs()` has passed since the previous run ended, and at least as
 * long as that run took: a screen then reads the replica at most half of the time, and the
 * pull's writes, which IndexedDB queues behind the screens' reads of the same tables, are not
 * starved (issue 29: a first sync of the 3-scale account spent most of IndexedDB's time in the
 * overview's reads, re-run after every page). When the pace ends (`gapMs()` is 0 again, told
 * through `pace.subscribe`), a waiting run starts at once.
 */
import { Dexie, type ObservabilitySet, type Observable, type Subscription } from "dexie";

/** How long re-runs wait (watch's module comment). */
export interface WatchPace {
  /** Milliseconds a re-run waits at least after the previous run ended; 0: no wait. */
  gapMs(): number;
  /** `listener` hears when `gapMs` may have changed; returns the unsubscription. */
  subscribe(listener: () => void): () => void;
}

export function watch<T>(
  dbName: string,
  query: () => Promise<T>,
  options?: { readonly tables?: readonly string[]; readonly pace?: WatchPace },
): Observable<T> {
  const pace = options?.pace;
  const prefix = `idb://${dbName}/`;
  // Dexie names a mutated range `idb://<db>/<table>/<index>`.
  const watched = (key: string) => {
    if (!key.startsWith(prefix)) return false;
    if (options?.tables === undefined) return true;
    const table = key.slice(prefix.length).split("/")[0] ?? "";
    return options.tables.includes(table);
  };
  const subscribe = (
    observerOrNext?:
      | { next?: (value: T) => void; error?: (err: unknown) => void }
      | ((value: T) => void)
      | null,
    errorFn?: ((err: unknown) => void) | null,
  ): Subscription => {
    const observer =
      typeof observerOrNext === "function" || observerOrNext == null
        ? { next: observerOrNext ?? undefined, error: errorFn ?? undefined }
        : observerOrNext;
    let closed = false;
    let running = false;
    let dirty = false;
    // The end of the last run and how long it took; a paced re-run's timer.
    let lastEnd = 0;
    let lastTook = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      if (running) {
        dirty = true;
        return;
      }
      running = true;
      do {
        dirty = false;
        const started = Date.now();
        try {
          const value = await query();
          if (!closed) observer.next?.(value);
        } catch (err) {
          // An error ends the subscription; one the next run might not see is not final.
          if (!closed && !dirty) observer.error?.(err);
        }
        lastEnd = Date.now();
        lastTook = lastEnd - started;
      } while (dirty && !closed && wait() === 0);
      running = false;
      if (dirty && !closed) schedule();
    };
    // Milliseconds until a re-run may start (0: now).
    const wait = () => {
      const gap = pace?.gapMs() ?? 0;
      return gap <= 0 ? 0 : Math.max(0, lastEnd + Math.max(gap, lastTook) - Date.now());
    };
    const schedule = () => {
      if (timer !== undefined) return;
      const ms = wait();
      if (ms === 0) {
        void run();
        return;
      }
      dirty = true;
      timer = setTimeout(() => {
        timer = undefined;
        void run();
      }, ms);
    };
    const onChange = (parts: ObservabilitySet) => {
      if (closed || !Object.keys(parts).some(watched)) return;
      if (running) dirty = true;
      else schedule();
    };
    // The pace ended (or changed): a waiting re-run is timed again.
    const unpace = pace?.subscribe(() => {
      if (timer === undefined || closed) return;
      clearTimeout(timer);
      timer = undefined;
      schedule();
    });
    Dexie.on("storagemutated", onChange);
    void run();
    return {
      get closed() {
        return closed;
      },
      unsubscribe() {
        closed = true;
        if (timer !== undefined) clearTimeout(timer);
        unpace?.();
        Dexie.on.storagemutated.unsubscribe(onChange);
      },
    };
  };
  const observable = {
    subscribe,
    [Symbol.observable ?? "@@observable"]() {
      return observable;
    },
  };
  return observable as unknown as Observable<T>;
}
