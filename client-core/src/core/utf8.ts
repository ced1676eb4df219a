/**
 * Text checks that need no Node or DOM API (the core's lib is ES2023: no TextEncoder,
 * no String.prototype.isWellFormed).
 */

/**
 * Text the database can store: well-formed UTF-16 (no lone surrogate, so it has a UTF-8 form)
 * and no U+0000, which neither Postgres `text` nor `jsonb` can hold. `JSON.parse` produces
 * both from `\ud800` and `\u0000` escapes, so a pushed payload can carry them.
 */
export function isStorableText(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0) return false;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      return false;
    }
  }
  return true;
}

/**
 * The length of the UTF-8 encoding of `s`. A lone surrogate counts 3 bytes, as its
 * replacement character would; check `isStorableText` first where that matters.
 */
export function utf8ByteLength(s: string): number {
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && isLowSurrogate(s.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

const isLowSurrogate = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;
