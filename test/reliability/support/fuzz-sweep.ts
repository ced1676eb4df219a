/**
 * The sweep, before the random cases of a method: a complete valid-looking request the server
 * accepts, then one field at a time set to each sweep value of its type, a few broken forms of
 * the whole request, and for Push the Push sweep. It also knows which requests must be refused
 * (refusalReason).
 */
import { randomUUID } from "node:crypto";
import { type DescMethod, ScalarType } from "@bufbuild/protobuf";
import fc from "fast-check";
import {
  type Body,
  binaryBodyOf,
  encodeBinary,
  encodeBinaryOf,
  type FuzzCase,
  jsonBodyOf,
  specialFor,
  utf8,
} from "./fuzz-case.ts";
import { sweepValues } from "./fuzz-hostile.ts";
import { envelope, envelopeFlags } from "./fuzz-http.ts";
import { pushSweep } from "./fuzz-push-sweep.ts";
import {
  hintOf,
  jsonText,
  type Leaf,
  leavesOf,
  type Pools,
  setPath,
  validValue,
} from "./fuzz-values.ts";

/** Times that do not exist or are not RFC 3339 in the proto's range (JSON only). */
const impossibleTimes = new Set([
  "feb-30",
  "apr-31",
  "feb-29-not-leap",
  "hour-24",
  "month-13",
  "second-60",
  "minute-60",
  "no-zone",
  "date-only",
  "year-0",
  "year-10000",
  "negative-year",
  "offset-25h",
  "space-separator",
  "nul",
  "garbage",
  "ten-fraction-digits",
]);

/** Texts Push refuses in a column (not storable, or over 10,000 characters). */
const unstorableTexts = new Set([
  "nul",
  "nul-only",
  "nul-inside",
  "lone-high-surrogate",
  "lone-low-surrogate",
  "long-10001",
  "long-100k",
]);

/** A write of a record service: its texts are stored under the rules Push applies. */
const isRecordWrite = (m: DescMethod): boolean =>
  !["AuthService", "SyncService", "StatsService", "EventService"].includes(m.parent.name) &&
  /^(Create|Update|Add|Relocate)/.test(m.name);

/**
 * Why a request whose field `leaf` holds the hostile value `kind` must be refused, or
 * undefined. Binary bodies carry no impossible times, and a lone surrogate reaches the server
 * as U+FFFD.
 */
export function refusalReason(
  method: DescMethod,
  leaf: Leaf,
  kind: string,
  encoding: "json" | "binary",
): string | undefined {
  const f = leaf.field;
  const path = leaf.path.join(".");
  // What the server sets itself, and what UpdateHive ignores (contract: "apiaryId and photo
  // in it are ignored"), need not be refused.
  if (f.name === "created_at" || f.name === "updated_at") return undefined;
  if (method.name === "UpdateHive" && (path === "hive.photo" || path === "hive.apiaryId")) {
    return undefined;
  }
  if (f.fieldKind === "message" && f.message.typeName === "google.protobuf.Timestamp") {
    return encoding === "json" && impossibleTimes.has(kind)
      ? `${path} is no real time (${kind})`
      : undefined;
  }
  if (
    isRecordWrite(method) &&
    f.fieldKind === "scalar" &&
    f.scalar === ScalarType.STRING &&
    hintOf(f) !== "id" &&
    unstorableTexts.has(kind) &&
    !(encoding === "binary" && kind.startsWith("lone-"))
  ) {
    return `${path} is a text Push refuses (${kind})`;
  }
  return undefined;
}

/**
 * Complete valid-looking requests (every field set, ordinary values only) for the sweep to
 * start from; the suite uses the first one the server accepts.
 */
export function sweepBases(
  method: DescMethod,
  p: Pools,
  seed: number,
  count: number,
): Record<string, unknown>[] {
  const special = specialFor(p);
  return Array.from({ length: count }, (_, i) => {
    const full: Record<string, unknown> = {};
    for (const f of method.input.fields) {
      const samples = fc.sample(validValue(p, f, method.parent.name, special), {
        seed: seed + i * 7919,
        numRuns: 30,
      });
      const chosen = samples.find((v) => v.kind === "") ?? samples[0];
      if (chosen) full[f.jsonName] = chosen.value;
    }
    return full;
  });
}

/** A request as JSON, with the caller's session (how the sweep's bases are tried). */
export function plainCase(method: DescMethod, value: Record<string, unknown>): FuzzCase {
  const stream = method.methodKind === "server_streaming";
  return {
    ...jsonBodyOf(stream, "json valid-looking", "sweep", jsonText(value)),
    auth: "session",
  };
}

/**
 * The sweep: a complete valid-looking request (from sweepBases) with one field at a time set to each of its type's sweep values (fuzz-values.ts sweepValues), as JSON
 * and, for strings, as binary; then the same request in a few broken forms every method must
 * refuse cleanly. Deterministic for a seed; the random cases come after.
 */
export function sweepCases(
  method: DescMethod,
  p: Pools,
  full: Record<string, unknown>,
): FuzzCase[] {
  const serviceName = method.parent.name;
  const stream = method.methodKind === "server_streaming";
  const session = (b: Body): FuzzCase => ({ ...b, auth: "session" });
  const cases: FuzzCase[] = [];
  // An email that makes an account or an invitation is fresh in every case (the base's own
  // would be taken after the base was accepted, and each case would stop at already_exists).
  const emails = /^(SignUp|Create)/.test(method.name)
    ? method.input.fields.filter((f) => hintOf(f) === "email")
    : [];
  for (const leaf of leavesOf(method.input)) {
    for (const v of sweepValues(p, leaf.field, serviceName)) {
      const value = structuredClone(full);
      for (const f of emails) value[f.jsonName] = `fuzz-${randomUUID().slice(0, 8)}@example.org`;
      setPath(value, leaf.path, v.value);
      const kind = `${leaf.path.join(".")}=${v.kind}`;
      const refuse = refusalReason(method, leaf, v.kind, "json");
      cases.push({
        ...session(jsonBodyOf(stream, `json ${kind}`, "sweep", jsonText(value))),
        ...(refuse ? { mustRefuse: refuse } : {}),
      });
      if (
        leaf.field.fieldKind === "scalar" &&
        leaf.field.scalar === ScalarType.STRING &&
        (v.kind === "nul" || v.kind === "lone-high-surrogate")
      ) {
        const { bytes, complete } = encodeBinaryOf(method, value);
        const refuseBinary = complete ? refusalReason(method, leaf, v.kind, "binary") : undefined;
        cases.push({
          ...session({ ...binaryBodyOf(stream, `binary ${kind}`, bytes), family: "sweep" }),
          ...(refuseBinary ? { mustRefuse: refuseBinary } : {}),
        });
      }
    }
  }
  // A batch of changes (Push): the Push sweep too.
  const changes = method.input.fields.find(
    (f) =>
      f.fieldKind === "list" &&
      f.listKind === "message" &&
      f.message.typeName === "hivekeep.v1.Change",
  );
  if (changes) {
    for (const c of pushSweep(p)) {
      cases.push({
        ...session(
          jsonBodyOf(stream, c.kind, "sweep", jsonText({ ...full, [changes.jsonName]: c.changes })),
        ),
        ...(c.mustRefuse ? { mustRefuse: c.mustRefuse } : {}),
      });
    }
  }
  const text = jsonText(full);
  const bytes = encodeBinary(method, full);
  const broken: Body[] = [
    {
      ...binaryBodyOf(stream, "binary-truncated", bytes.subarray(0, Math.max(0, bytes.length - 1))),
    },
    binaryBodyOf(
      stream,
      "binary-length-4GiB",
      new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]),
    ),
    jsonBodyOf(stream, "json-broken truncated", "json-broken", text.slice(0, text.length - 1)),
    {
      ...jsonBodyOf(stream, 'content-type "text/plain"', "transport", text),
      headers: { "content-type": "text/plain" },
    },
    {
      ...jsonBodyOf(stream, "content-encoding gzip-garbage", "transport", "this is not gzip"),
      headers: {
        "content-type": stream ? "application/connect+json" : "application/json",
        [stream ? "connect-content-encoding" : "content-encoding"]: "gzip",
      },
      ...(stream ? { body: envelope(envelopeFlags.compressed, utf8("this is not gzip")) } : {}),
    },
    {
      ...jsonBodyOf(stream, "http GET", "transport", ""),
      httpMethod: "GET",
      headers: {},
      body: new Uint8Array(0),
    },
    { ...jsonBodyOf(stream, "http PUT", "transport", text), httpMethod: "PUT" },
    ...(stream
      ? [
          {
            ...jsonBodyOf(stream, "stream-framing compressed-flag-without-encoding", "stream", ""),
            body: envelope(envelopeFlags.compressed, utf8(text)),
          },
        ]
      : []),
  ];
  for (const b of broken) cases.push(session({ ...b, family: "sweep" }));
  return cases;
}
