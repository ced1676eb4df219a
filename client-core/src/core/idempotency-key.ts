/**
 * An idempotency key as a client sends it: the `Idempotency-Key` header of the IETF httpapi
 * draft (draft-ietf-httpapi-idempotency-key-header) on a Create call, and the `idempotencyKey`
 * of one reading in CreateReadings. One rule for both, on the server and the device.
 *
 * The draft makes the header a Structured Field String (`"8e03978e-…"`, quoted); most clients
 * send the bare value (as Stripe's API takes it). Both are taken: a quoted value is unquoted
 * (`\"` and `\\` escapes), so `"abc"` and `abc` are the same key. The key itself is 1 to 255
 * printable ASCII characters (space to `~`): it is stored and compared byte for byte.
 */
import { quote } from "./quote.ts";

export const maxIdempotencyKeyLength = 255;

const printableAscii = /^[\x20-\x7e]+$/;

/** The key of a header value, or the reason it is not one. */
export function parseIdempotencyKey(value: string): { key: string } | { error: string } {
  let key = value.trim();
  if (key.startsWith('"')) {
    const unquoted = unquotedString(key);
    if (unquoted === undefined) {
      return { error: `the Idempotency-Key ${quote(value)} is not a valid quoted string` };
    }
    key = unquoted;
  }
  const error = idempotencyKeyProblem(key, "the Idempotency-Key");
  return error === undefined ? { key } : { error };
}

/** Why `key` is not a valid idempotency key (undefined when it is); `name` names it. */
export function idempotencyKeyProblem(key: string, name: string): string | undefined {
  if (key === "") return `${name} is empty`;
  if (key.length > maxIdempotencyKeyLength) {
    return `${name} is ${key.length} characters long, at most ${maxIdempotencyKeyLength} are allowed`;
  }
  if (!printableAscii.test(key)) {
    return `${name} ${quote(key)} must be printable ASCII characters only (space to ~)`;
  }
  return undefined;
}

/** A Structured Field String's value (RFC 9651 §3.3.3), or undefined when `s` is not one. */
function unquotedString(s: string): string | undefined {
  let out = "";
  for (let i = 1; i < s.length; i++) {
    const c = s[i];
    if (c === "\\") {
      const next = s[++i];
      if (next !== '"' && next !== "\\") return undefined;
      out += next;
    } else if (c === '"') {
      return i === s.length - 1 ? out : undefined;
    } else {
      out += c;
    }
  }
  return undefined;
}
