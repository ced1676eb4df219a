/** Protobuf varints of at most 32 bits, for the hand-written encoders (wire.ts, the server's Pull pages). */

/** The bytes of `n` (below 2^32) as a varint. */
export const varintSize = (n: number): number =>
  n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5;

/** Writes `n` (below 2^32) as a varint into `out` at `at`; returns where it ends. */
export function writeVarint(out: Uint8Array, at: number, n: number): number {
  while (n > 0x7f) {
    out[at++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  out[at++] = n;
  return at;
}
