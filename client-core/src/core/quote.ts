/**
 * How an error message quotes a value the caller sent (an id, a token, a column name): as a JSON
 * string of at most `maxQuotedLength` characters, longer ones cut there and marked with "…". A
 * message, and the log line that may carry it, never grows with the input (a 1 MB id is quoted
 * as its first 80 characters), and control characters such as U+0000 come out escaped.
 */
export const maxQuotedLength = 80;

export const quote = (s: string): string =>
  JSON.stringify(s.length > maxQuotedLength ? `${s.slice(0, maxQuotedLength)}…` : s);
