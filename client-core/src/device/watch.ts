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
 */
import { Dexie, type ObservabilitySet, type Observable, type Subscription } from "dexie";

export function watch<T>(
  dbName: string,
  query: () => Promise<T>,
  options?: { readonly tables?: readonly string[] },
): Observable<T> {
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
    const run = async () => {
      if (running) {
        dirty = true;
        return;
      }
      running = true;
      do {
        dirty = false;
        try {
          const value = await query();
          if (!closed) observer.next?.(value);
        } catch (err) {
          // An error ends the subscription; one the next run might not see is not final.
          if (!closed && !dirty) observer.error?.(err);
        }
      } while (dirty && !closed);
      running = false;
    };
    const onChange = (parts: ObservabilitySet) => {
      if (!closed && Object.keys(parts).some(watched)) void run();
    };
    Dexie.on("storagemutated", onChange);
    void run();
    return {
      get closed() {
        return closed;
      },
      unsubscribe() {
        closed = true;
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
