/**
 * How the fuzz suite reports: one call's result, failures grouped by kind (the hostile part of
 * the request and how it failed), and a readable request/answer for each.
 */
import type { DescMethod } from "@bufbuild/protobuf";
import type { FuzzCase } from "./fuzz-case.ts";

export interface Result {
  readonly status: number;
  readonly code?: string;
  readonly message?: string;
  readonly problems: string[];
  readonly responsePreview: string;
}

export interface Failure {
  readonly index: number;
  readonly c: FuzzCase;
  readonly r: Result;
  readonly signature: string;
}

export interface KindReport {
  readonly method: string;
  readonly signature: string;
  readonly count: number;
  readonly example: string;
  readonly shrunk?: string;
}

export const preview = (bytes: Uint8Array | Buffer, n = 300): string => {
  const text = Buffer.from(bytes).toString("utf8");
  return JSON.stringify(text.length > n ? `${text.slice(0, n)}…(${text.length} chars)` : text);
};

export const describeCase = (m: DescMethod, c: FuzzCase, r: Result): string =>
  [
    `${c.httpMethod} /${m.parent.typeName}/${m.name}${c.query.slice(0, 200)} auth=${c.auth}`,
    `  headers ${JSON.stringify(c.headers, (_k, v) => (typeof v === "string" && v.length > 40 ? `${v.slice(0, 40)}…(${v.length})` : v))}`,
    `  kind: ${c.kind}${c.detail ? ` (also: ${c.detail})` : ""}`,
    `  body (${c.body.byteLength} bytes): ${preview(c.body)}`,
    `  → ${r.status} ${r.code ?? ""} ${r.responsePreview}`,
    ...r.problems.map((p) => `  ✗ ${p}`),
  ].join("\n");

/** What a failure is, for grouping: the hostile part of the request and how it failed. */
export const signatureOf = (c: FuzzCase, r: Result): string =>
  `${c.kind} → ${r.status}${r.code ? ` ${r.code}` : ""} [${[
    ...new Set(r.problems.map((p) => p.split(":")[0])),
  ].join(", ")}]`;
