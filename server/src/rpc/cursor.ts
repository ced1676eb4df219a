/**
 * The feed cursor a caller sends to Pull and Subscribe: "" (from the start) or the decimal
 * sequence number of the last change it has, as the server gave it (nextCursor, a Subscribe
 * poke). One grammar for both methods; a malformed cursor is quoted short (core's quote).
 */

import { quote } from "@hivekeep/client-core/core";
import { invalidArgument } from "@hivekeep/client-core/ops";

const cursorPattern = /^\d{1,15}$/;

/** The sequence number after which to read: 0 for "". Throws invalid_argument when malformed. */
export function parseCursor(cursor: string): number {
  if (cursor === "") return 0;
  if (!cursorPattern.test(cursor)) {
    throw invalidArgument(`cursor ${quote(cursor)} is malformed; pass "" or nextCursor`);
  }
  return Number(cursor);
}
