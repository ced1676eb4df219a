/**
 * Whole hostile requests for one RPC method, from its descriptor: a JSON body shaped like the
 * request with hostile values in some fields, broken JSON (truncated, malformed, invalid UTF-8,
 * 100,000-deep, over the body limit), binary protobuf (valid, truncated, random, bad UTF-8,
 * overflowing varints), wrong content types, HTTP methods and encodings, and for a server
 * stream its envelope framing bent. Every request also picks its credentials (mostly the
 * caller's session; none, garbage, a revoked session, …).
 */
import { gzipSync } from "node:zlib";
import { type DescMethod, ScalarType } from "@bufbuild/protobuf";
import fc from "fast-check";
import {
  type AuthKind,
  type Body,
  binaryBodyOf,
  concat,
  encodeBinary,
  encodeBinaryOf,
  type FuzzCase,
  jsonBodyOf,
  specialFor,
  utf8,
  varint,
} from "./fuzz-case.ts";
import { hostileValue } from "./fuzz-hostile.ts";
import { envelope, envelopeFlags } from "./fuzz-http.ts";
import { refusalReason } from "./fuzz-sweep.ts";
import {
  deepArray,
  deepObject,
  jsonText,
  type Leaf,
  leavesOf,
  type Pools,
  protoKeys,
  setPath,
  validObject,
} from "./fuzz-values.ts";

const invalidUtf8: (readonly [string, number[]])[] = [
  ["byte-ff", [0xff]],
  ["lone-continuation", [0x80]],
  ["bad-continuation", [0xc3, 0x28]],
  ["overlong-nul", [0xc0, 0x80]],
  ["encoded-surrogate", [0xed, 0xa0, 0x80]],
  ["beyond-10ffff", [0xf4, 0x90, 0x80, 0x80]],
  ["truncated-sequence", [0xe2, 0x82]],
];

let bomb: Uint8Array | undefined;
/** 20 MB of zeros, gzipped (about 20 kB). */
const gzipBomb = () => {
  bomb ??= new Uint8Array(gzipSync(Buffer.alloc(20 * 1024 * 1024)));
  return bomb;
};

const contentTypes = [
  "text/plain",
  "application/xml",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/json; charset=utf-16",
  "application/JSON",
  "application/json+fake",
  "application/grpc",
  "application/grpc-web+proto",
  "*/*",
  "",
];

/** Everything generated for one method. */
export function caseArbitrary(method: DescMethod, p: Pools): fc.Arbitrary<FuzzCase> {
  const serviceName = method.parent.name;
  const stream = method.methodKind === "server_streaming";
  const special = specialFor(p);
  const leaves = leavesOf(method.input);
  const base = validObject(p, method.input, serviceName, special);

  // The request as JSON: valid-looking, with 0–2 fields made hostile.
  const hostileLeaf =
    leaves.length === 0
      ? fc.constant(undefined)
      : fc
          .constantFrom(...leaves)
          .chain((leaf) => hostileValue(p, leaf.field, serviceName).map((t) => ({ leaf, t })));
  const shaped = fc
    .record({
      base,
      hostile: fc.array(hostileLeaf, { maxLength: leaves.length === 0 ? 0 : 2 }),
      snakeNames: fc.boolean(),
    })
    .map(({ base: b, hostile, snakeNames }) => {
      const value = structuredClone(b.value);
      const kinds: string[] = [];
      // The last hostile value at a path is the one sent.
      const last = new Map<string, { leaf: Leaf; kind: string }>();
      for (const h of hostile) {
        if (!h) continue;
        setPath(value, h.leaf.path, h.t.value);
        kinds.push(`${h.leaf.path.join(".")}=${h.t.kind}`);
        last.set(h.leaf.path.join("."), { leaf: h.leaf, kind: h.t.kind });
      }
      const reasons = (encoding: "json" | "binary") =>
        [...last.values()]
          .map((h) => refusalReason(method, h.leaf, h.kind, encoding))
          .filter((r): r is string => r !== undefined)
          .join("; ") || undefined;
      if (snakeNames) {
        for (const f of method.input.fields) {
          if (f.jsonName !== f.name && f.jsonName in value) {
            value[f.name] = value[f.jsonName];
            delete value[f.jsonName];
          }
        }
      }
      return {
        value,
        kinds,
        detail: b.labels.join(" "),
        mustRefuse: { json: reasons("json"), binary: reasons("binary") },
      };
    });

  const jsonBody = (kind: string, family: string, text: string | Uint8Array, detail = "") =>
    jsonBodyOf(stream, kind, family, text, detail);
  const binaryBody = (kind: string, bytes: Uint8Array, detail = "") =>
    binaryBodyOf(stream, kind, bytes, detail);

  const json = shaped.map(
    (s): Body => ({
      ...jsonBody(
        s.kinds.length ? `json ${s.kinds.join(" ")}` : "json valid-looking",
        "json",
        jsonText(s.value),
        s.detail,
      ),
      ...(s.mustRefuse.json ? { mustRefuse: s.mustRefuse.json } : {}),
    }),
  );

  const structure = fc
    .record({
      s: shaped,
      twist: fc.constantFrom(
        "proto-keys",
        "unknown-field",
        "duplicate-keys",
        "bom",
        "deep-object-1000",
        "deep-array-100000",
        "deep-object-100000",
        "top-level-array",
        "top-level-null",
        "top-level-string",
        "whitespace-padded",
      ),
    })
    .map(({ s, twist }): Body => {
      const text = jsonText(s.value);
      const first = method.input.fields[0]?.jsonName ?? "x";
      const kind = `json-structure ${twist}${s.kinds.length ? ` ${s.kinds.join(" ")}` : ""}`;
      const body = {
        "proto-keys": () => jsonText({ ...protoKeys(), ...s.value }),
        "unknown-field": () => jsonText({ ...s.value, noSuchField: { a: [1, 2] } }),
        "duplicate-keys": () => `{"${first}":"dup",${text.slice(1)}`,
        bom: () => `\ufeff${text}`,
        "deep-object-1000": () => jsonText({ ...s.value, [first]: deepObject(1000) }),
        "deep-array-100000": () => deepArray(100_000).text,
        "deep-object-100000": () => deepObject(100_000).text,
        "top-level-array": () => `[${text}]`,
        "top-level-null": () => "null",
        "top-level-string": () => JSON.stringify(text),
        "whitespace-padded": () => `\n\t ${text} \r\n`,
      }[twist]();
      return jsonBody(kind, "json-structure", body, s.detail);
    });

  const broken = fc.oneof(
    fc.record({ s: shaped, cut: fc.nat() }).map(({ s, cut }) => {
      const text = jsonText(s.value);
      return jsonBody("json-broken truncated", "json-broken", text.slice(0, cut % text.length));
    }),
    fc
      .constantFrom(
        "{",
        "}",
        '{"a":}',
        "nul",
        "{'a':1}",
        '{"a":1,}',
        "\u0000",
        '{"a":"\\u00"}',
        "NaN",
        '{"a":1}}',
        "[",
        "",
      )
      .map((text) =>
        jsonBody(`json-broken malformed ${JSON.stringify(text)}`, "json-broken", text),
      ),
    fc
      .record({ s: shaped, bad: fc.constantFrom(...invalidUtf8) })
      .map(({ s, bad: [name, bytes] }) => {
        const stringLeaf = method.input.fields.find(
          (f) => f.fieldKind === "scalar" && f.scalar === ScalarType.STRING,
        );
        const key = stringLeaf?.jsonName ?? "noSuchField";
        const text = jsonText({ ...s.value, [key]: "INVALID_UTF8_HERE" });
        const at = text.lastIndexOf("INVALID_UTF8_HERE");
        const before = text.slice(0, at);
        const after = text.slice(at + "INVALID_UTF8_HERE".length);
        return jsonBody(
          `json-broken invalid-utf8 ${key}=${name}`,
          "json-broken",
          concat(utf8(`${before}a`), new Uint8Array(bytes), utf8(`b${after}`)),
        );
      }),
    fc
      .constant(null)
      .map(() =>
        jsonBody(
          "json-broken over-the-body-limit",
          "json-broken",
          jsonText({ note: "p".repeat(2_200_000) }),
        ),
      ),
  );

  const binary = fc.oneof(
    shaped.map((s): Body => {
      const { bytes, complete } = encodeBinaryOf(method, s.value);
      return {
        ...binaryBody(
          s.kinds.length ? `binary ${s.kinds.join(" ")}` : "binary valid-looking",
          bytes,
          s.detail,
        ),
        ...(complete && s.mustRefuse.binary ? { mustRefuse: s.mustRefuse.binary } : {}),
      };
    }),
    fc.record({ s: shaped, cut: fc.nat() }).map(({ s, cut }) => {
      const bytes = encodeBinary(method, s.value);
      const keep = bytes.length === 0 ? 0 : cut % bytes.length;
      return binaryBody(
        "binary-truncated",
        concat(bytes.subarray(0, keep), new Uint8Array([0x0a, 0x05, 0x61])),
      );
    }),
    fc
      .uint8Array({ minLength: 1, maxLength: 48 })
      .map((bytes) => binaryBody("binary-random", bytes)),
    fc.constantFrom(...invalidUtf8).map(([name, bytes]) => {
      const f = method.input.fields.find(
        (x) => x.fieldKind === "scalar" && x.scalar === ScalarType.STRING,
      );
      const number = f?.number ?? 1;
      return binaryBody(
        `binary-invalid-utf8 ${f?.jsonName ?? "field1"}=${name}`,
        new Uint8Array([...varint((number << 3) | 2), bytes.length + 2, 0x61, ...bytes, 0x62]),
      );
    }),
    fc
      .constantFrom(
        [
          "varint-overflow",
          [0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
        ],
        ["length-4GiB", [0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]],
        ["wrong-wire-type", [0x0d, 1, 2, 3, 4]],
        ["group-start", [0x0b]],
        ["group-end", [0x0c]],
        ["field-number-0", [0x00, 0x01]],
        ["field-number-max", [0xf8, 0xff, 0xff, 0xff, 0x0f, 0x01]],
        ["unknown-field-length", [0xa2, 0x06, 0x7f, 0x01]],
      )
      .map(([name, bytes]) => binaryBody(`binary-${name}`, Uint8Array.from(bytes))),
    shaped.map((s) => ({
      ...binaryBody("binary-sent-as-json", encodeBinary(method, s.value)),
      headers: { "content-type": stream ? "application/connect+json" : "application/json" },
    })),
    shaped.map((s) => ({
      ...jsonBody("json-sent-as-binary", "binary", jsonText(s.value)),
      headers: { "content-type": stream ? "application/connect+proto" : "application/proto" },
    })),
  );

  const transport = fc.oneof(
    fc.record({ s: shaped, ct: fc.constantFrom(...contentTypes) }).map(({ s, ct }): Body => {
      const b = jsonBody(`content-type ${JSON.stringify(ct)}`, "transport", jsonText(s.value));
      return { ...b, headers: ct === "" ? {} : { "content-type": ct } };
    }),
    fc
      .record({
        s: shaped,
        m: fc.constantFrom("GET", "PUT", "DELETE", "PATCH", "OPTIONS"),
        q: fc.constantFrom("none", "json", "connect-json", "proto", "bad-encoding", "bad-bytes"),
      })
      .map(({ s, m, q }): Body => {
        const text = jsonText(s.value);
        const message = encodeURIComponent(text);
        const query = {
          none: "",
          json: `?encoding=json&message=${message}`,
          "connect-json": `?connect=v1&encoding=json&message=${message}`,
          proto: `?connect=v1&encoding=proto&base64=1&message=${Buffer.from(encodeBinary(method, s.value)).toString("base64url")}`,
          "bad-encoding": "?connect=v1&encoding=xml&message=x",
          "bad-bytes": "?connect=v1&encoding=json&message=%ff%fe%00",
        }[q];
        return {
          kind: `http ${m}${q === "none" ? "" : ` query ${q}`}`,
          detail: "",
          family: "transport",
          httpMethod: m,
          query: m === "GET" ? query : "",
          headers: m === "GET" ? {} : { "content-type": "application/json" },
          body: m === "GET" ? new Uint8Array(0) : utf8(text),
        };
      }),
    fc
      .record({
        s: shaped,
        enc: fc.constantFrom(
          "gzip-garbage",
          "gzip-valid",
          "gzip-bomb",
          "br-garbage",
          "zstd",
          "gzip,identity",
          "identity",
        ),
      })
      .map(({ s, enc }): Body => {
        const text = jsonText(s.value);
        const { header, body } = {
          "gzip-garbage": { header: "gzip", body: utf8("this is not gzip") },
          "gzip-valid": { header: "gzip", body: new Uint8Array(gzipSync(text)) },
          "gzip-bomb": { header: "gzip", body: gzipBomb() },
          "br-garbage": { header: "br", body: utf8("not brotli") },
          zstd: { header: "zstd", body: utf8(text) },
          "gzip,identity": { header: "gzip, identity", body: new Uint8Array(gzipSync(text)) },
          identity: { header: "identity", body: utf8(text) },
        }[enc];
        const b = jsonBody(`content-encoding ${enc}`, "transport", body);
        const name = stream ? "connect-content-encoding" : "content-encoding";
        return {
          ...b,
          headers: { ...b.headers, [name]: header },
          // A stream's compressed message says so in its envelope.
          body: stream ? envelope(envelopeFlags.compressed, body) : body,
        };
      }),
    fc
      .record({
        s: shaped,
        h: fc.constantFrom(
          ["connect-protocol-version", "2"],
          ["connect-protocol-version", "abc"],
          ["connect-timeout-ms", "abc"],
          ["connect-timeout-ms", "-1"],
          ["connect-timeout-ms", "99999999999"],
          ["connect-timeout-ms", "1.5"],
          ["accept-encoding", "x".repeat(4000)],
          ["x-forwarded-for", "1.2.3.4, ::1"],
          ["x-huge-header", "h".repeat(12_000)],
        ),
      })
      .map(({ s, h: [name, value] }) => {
        const b = jsonBody(
          `header ${name}: ${value.length > 20 ? `${value.length} chars` : value}`,
          "transport",
          jsonText(s.value),
        );
        return { ...b, headers: { ...b.headers, [name]: value } };
      }),
    // The other framing: a unary method called as a stream, a stream called as unary.
    shaped.map(
      (s): Body => ({
        kind: stream ? "stream-called-unary" : "unary-called-as-stream",
        detail: "",
        family: "transport",
        httpMethod: "POST",
        query: "",
        headers: {
          "content-type": stream ? "application/json" : "application/connect+json",
        },
        body: stream ? utf8(jsonText(s.value)) : envelope(0, utf8(jsonText(s.value))),
      }),
    ),
  );

  const framing = shaped.chain((s) => {
    const msg = utf8(jsonText(s.value));
    const frames: (readonly [string, Uint8Array, Record<string, string>?])[] = [
      ["compressed-flag-without-encoding", envelope(envelopeFlags.compressed, msg)],
      ["length-longer-than-data", envelope(0, msg, msg.length + 10)],
      ["length-shorter-than-data", envelope(0, msg, Math.max(0, msg.length - 3))],
      ["length-4GiB", envelope(0, msg, 0xffffffff)],
      ["two-messages", concat(envelope(0, msg), envelope(0, msg))],
      ["end-stream-flag", envelope(envelopeFlags.endStream, msg)],
      ["unknown-flag", envelope(0x80, msg)],
      ["no-envelope", new Uint8Array(0)],
      ["truncated-prefix", new Uint8Array([0, 0, 0])],
      ["bare-json", msg],
      [
        "gzip-flag-garbage",
        envelope(envelopeFlags.compressed, utf8("not gzip")),
        { "connect-content-encoding": "gzip" },
      ],
    ];
    return fc.constantFrom(...frames).map(
      ([name, body, headers]): Body => ({
        kind: `stream-framing ${name}`,
        detail: "",
        family: "stream",
        httpMethod: "POST",
        query: "",
        headers: { "content-type": "application/connect+json", ...(headers ?? {}) },
        body,
      }),
    );
  });

  const bodies = fc.oneof(
    { weight: 9, arbitrary: json },
    { weight: 2, arbitrary: structure },
    { weight: 2, arbitrary: broken },
    { weight: 4, arbitrary: binary },
    { weight: 3, arbitrary: transport },
    ...(stream ? [{ weight: 3, arbitrary: framing }] : []),
  );
  const auth = fc.oneof(
    { weight: 24, arbitrary: fc.constant<AuthKind>("session") },
    {
      weight: 4,
      arbitrary: fc.constantFrom<AuthKind>(
        "none",
        "garbage",
        "revoked",
        "long",
        "basic",
        "lowercase-bearer",
        "api-key",
      ),
    },
  );
  return fc.record({ body: bodies, auth }).map(({ body, auth: a }) => ({ ...body, auth: a }));
}
