/**
 * One replica transaction at a time per tab. Operations are async functions that await Dexie
 * calls inside a transaction; Dexie follows them through its zones, but in Chromium two such
 * transactions whose awaits interleave can lose track of each other, and one then commits too
 * early (PrematureCommitError; fake-indexeddb does not show it). Queuing them per database
 * avoids that; each also starts outside any transaction it was called from (a live query's
 * continuation runs in the zone of the read that woke it). Never call `exclusive` for the same
 * database from inside it: the inner call would wait for the outer one forever.
 */
import { Dexie } from "dexie";

const queues = new WeakMap<object, Promise<unknown>>();

export function exclusive<T>(db: object, fn: () => Promise<T>): Promise<T> {
  const run = () => Dexie.ignoreTransaction(fn);
  const previous = queues.get(db) ?? Promise.resolve();
  const result = previous.then(run, run);
  queues.set(
    db,
    result.catch(() => {}),
  );
  return result;
}
