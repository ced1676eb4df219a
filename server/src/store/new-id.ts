/**
 * The server's ids of new rows: UUID v7 (time-ordered, DESIGN.md §3), as the `uuid` package
 * makes them, but with their random bits taken from a pool that one `randomFillSync` fills 4 KB
 * at a time. `uuid`'s own v7 asks WebCrypto's `getRandomValues` for 16 bytes per id, whose
 * argument checks cost more than the id: a CreateReadings batch of 1,000 readings mints 1,000
 * event ids, and they were about a tenth of its JavaScript on PGlite's thread (issue 29).
 *
 * Within one millisecond the ids still count up (the `uuid` package's rule: a random 31-bit
 * sequence at each new millisecond, then + 1; past its end, the next millisecond), so the ids
 * of one source sort in the order they were made.
 */
import { randomFillSync } from "node:crypto";
import { v7 as uuidv7 } from "uuid";

const poolBytes = 4096;

/** A source of UUID v7 ids; `now` is the wall clock in ms (tests pass their own). */
export function newIdSource(now: () => number = Date.now): () => string {
  const pool = new Uint8Array(poolBytes);
  const view = new DataView(pool.buffer);
  let at = poolBytes;
  let msecs = Number.NEGATIVE_INFINITY;
  let seq = 0;
  return () => {
    if (at === poolBytes) {
      randomFillSync(pool);
      at = 0;
    }
    const random = pool.subarray(at, at + 16);
    const ms = now();
    if (ms > msecs) {
      msecs = ms;
      seq = view.getUint32(at + 6) & 0x7fffffff;
    } else {
      seq = (seq + 1) | 0;
      if (seq === 0) msecs++;
    }
    at += 16;
    return uuidv7({ random, msecs, seq });
  };
}
