/**
 * The two position tokens of the contract, one grammar: "" (from the start) or a decimal
 * number of at most 15 digits (below 2^53, so it reads exactly as a number).
 * - The feed cursor of Pull and Subscribe: the sequence number of the last change a caller has,
 *   as the server gave it (nextCursor, a Subscribe poke). Devices keep it as an opaque string.
 * - The page token of every List* but ListEvents (contract §8): the offset of the first row.
 * A malformed one is quoted short (quote.ts) in an invalid_argument.
 */
import { type DomainError, invalid } from "./domain-error.ts";
import { quote } from "./quote.ts";

const decimalPattern = /^\d{1,15}$/;

function parseDecimal(text: string, malformed: () => DomainError): number {
  if (text === "") return 0;
  if (!decimalPattern.test(text)) throw malformed();
  return Number(text);
}

/** The sequence number after which to read: 0 for "". */
export const parseCursor = (cursor: string): number =>
  parseDecimal(cursor, () =>
    invalid("cursor", `cursor ${quote(cursor)} is malformed; pass "" or nextCursor`),
  );

/** The cursor of the feed up to and including sequence number `seq`. */
export const formatCursor = (seq: number): string => String(seq);

/** The offset of the page's first row: 0 for "". */
export const parsePageToken = (token: string): number =>
  parseDecimal(token, () =>
    invalid(
      "page.pageToken",
      `page.pageToken ${quote(token)} is not valid; pass back nextPageToken`,
    ),
  );

/** The page token of the page whose first row is at `offset`. */
export const formatPageToken = (offset: number): string => String(offset);
