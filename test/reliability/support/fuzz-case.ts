/**
 * One fuzzed request (FuzzCase) and how bodies are made: JSON as is or in a stream's envelope,
 * binary protobuf from a JSON-shaped value, and the Push batch generator for lists of changes.
 */
import {
  type DescField,
  type DescMethod,
  fromJson,
  type JsonValue,
  toBinary,
} from "@bufbuild/protobuf";
import { envelope } from "./fuzz-http.ts";
import { forgedBatch } from "./fuzz-push.ts";
import { jsonText, type Pools, type Special } from "./fuzz-values.ts";

export type AuthKind =
  | "session"
  | "none"
  | "garbage"
  | "revoked"
  | "long"
  | "basic"
  | "lowercase-bearer"
  | "api-key";

export interface FuzzCase {
  /** What is hostile about the request ("json name=nul", "binary-truncated", …). */
  readonly kind: string;
  /** Unusual but ordinary parts (other tenants' ids in otherwise valid fields, …). */
  readonly detail: string;
  /** The body family: json, json-structure, json-broken, binary, transport, stream. */
  readonly family: string;
  readonly auth: AuthKind;
  readonly httpMethod: string;
  readonly query: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
  /** Why the server must refuse it, if it must (an impossible time, a text Push refuses). */
  readonly mustRefuse?: string;
}

export type Body = Omit<FuzzCase, "auth">;

export const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
export const concat = (...parts: Uint8Array[]): Uint8Array => new Uint8Array(Buffer.concat(parts));

/**
 * The message as binary protobuf, leaving out top-level fields it cannot encode (`complete`
 * says whether it encoded everything).
 */
export function encodeBinaryOf(
  method: DescMethod,
  value: Record<string, unknown>,
): { bytes: Uint8Array; complete: boolean } {
  const attempt = (v: Record<string, unknown>) => {
    try {
      const json = JSON.parse(jsonText(v)) as JsonValue;
      return toBinary(method.input, fromJson(method.input, json, { ignoreUnknownFields: true }));
    } catch {
      return undefined;
    }
  };
  const whole = attempt(value);
  if (whole) return { bytes: whole, complete: true };
  const kept = { ...value };
  for (const key of Object.keys(value)) {
    delete kept[key];
    const bytes = attempt(kept);
    if (bytes) return { bytes, complete: false };
  }
  return { bytes: new Uint8Array(0), complete: false };
}

export const encodeBinary = (method: DescMethod, value: Record<string, unknown>): Uint8Array =>
  encodeBinaryOf(method, value).bytes;

/** A varint as bytes. */
export function varint(n: number): number[] {
  const out: number[] = [];
  let v = n;
  while (v > 0x7f) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}

/** How a JSON body travels: unary as is, a stream in one envelope. */
export function jsonBodyOf(
  stream: boolean,
  kind: string,
  family: string,
  text: string | Uint8Array,
  detail = "",
): Body {
  const bytes = typeof text === "string" ? utf8(text) : text;
  return {
    kind,
    detail,
    family,
    httpMethod: "POST",
    query: "",
    headers: { "content-type": stream ? "application/connect+json" : "application/json" },
    body: stream ? envelope(0, bytes) : bytes,
  };
}

/** How a binary body travels. */
export function binaryBodyOf(stream: boolean, kind: string, bytes: Uint8Array, detail = ""): Body {
  return {
    kind,
    detail,
    family: "binary",
    httpMethod: "POST",
    query: "",
    headers: { "content-type": stream ? "application/connect+proto" : "application/proto" },
    body: stream ? envelope(0, bytes) : bytes,
  };
}

/** The Push batch generator for a list of changes; nothing special elsewhere. */
export const specialFor =
  (p: Pools): Special =>
  (field: DescField) =>
    field.fieldKind === "list" &&
    field.listKind === "message" &&
    field.message.typeName === "hivekeep.v1.Change"
      ? forgedBatch(p)
      : undefined;
