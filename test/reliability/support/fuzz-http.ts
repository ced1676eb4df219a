/**
 * The fuzz suite's wire: one raw HTTP request exactly as generated (any method, headers and
 * bytes, on a fresh connection), the Connect envelope framing of streams, and the checks every
 * answer must pass.
 */
import http from "node:http";

export interface RawRequest {
  readonly method: string;
  /** Path and query, e.g. `/hivekeep.v1.HiveService/GetHive`. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
}

export interface RawResponse {
  /** 0 when no answer arrived (the connection failed first: EPIPE, reset, timeout). */
  readonly status: number;
  readonly contentType: string;
  readonly body: Buffer;
  /** The answer was still streaming when the reading window closed and we hung up. */
  readonly cut: boolean;
  /** Why no answer arrived. */
  readonly error?: string;
}

export interface SendOptions {
  /** How long to wait for the answer to start. */
  readonly answerTimeoutMs: number;
  /** For a 200 stream: how long to read before hanging up. */
  readonly streamWindowMs: number;
}

/** Sends one request on a new connection; never rejects. */
export function send(baseUrl: string, req: RawRequest, opts: SendOptions): Promise<RawResponse> {
  return new Promise((resolve) => {
    const url = new URL(req.path, baseUrl);
    let settled = false;
    const done = (r: RawResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(answerTimer);
      resolve(r);
    };
    const outgoing = http.request(url, {
      method: req.method,
      headers: { ...req.headers, "content-length": String(req.body.byteLength) },
      agent: false,
    });
    const answerTimer = setTimeout(() => {
      outgoing.destroy();
      done({
        status: 0,
        contentType: "",
        body: Buffer.alloc(0),
        cut: false,
        error: `no answer within ${opts.answerTimeoutMs} ms`,
      });
    }, opts.answerTimeoutMs);
    outgoing.on("response", (res) => {
      clearTimeout(answerTimer);
      const chunks: Buffer[] = [];
      const contentType = String(res.headers["content-type"] ?? "");
      const streaming = res.statusCode === 200 && contentType.startsWith("application/connect+");
      let windowTimer: NodeJS.Timeout | undefined;
      const finish = (cut: boolean) => {
        clearTimeout(windowTimer);
        done({ status: res.statusCode ?? 0, contentType, body: Buffer.concat(chunks), cut });
      };
      if (streaming) {
        windowTimer = setTimeout(() => {
          finish(true);
          outgoing.destroy();
        }, opts.streamWindowMs);
      }
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => finish(false));
      res.on("error", () => finish(true));
      res.on("close", () => finish(!res.complete));
    });
    outgoing.on("error", (err: NodeJS.ErrnoException) => {
      done({
        status: 0,
        contentType: "",
        body: Buffer.alloc(0),
        cut: false,
        error: `${err.code ?? ""} ${err.message}`.trim(),
      });
    });
    outgoing.end(req.body);
  });
}

// ---- Connect envelopes (streams) ------------------------------------------------------------

export const envelopeFlags = { compressed: 0b01, endStream: 0b10 } as const;

/** One Connect envelope: a flags byte, the length as a big-endian uint32, the data. */
export function envelope(flags: number, data: Uint8Array, declaredLength = data.byteLength) {
  const out = new Uint8Array(5 + data.byteLength);
  out[0] = flags;
  new DataView(out.buffer).setUint32(1, declaredLength >>> 0);
  out.set(data, 5);
  return out;
}

export interface Envelope {
  readonly flags: number;
  readonly data: Buffer;
}

/** Splits a stream body into envelopes; `rest` holds bytes of an incomplete last one. */
export function parseEnvelopes(body: Buffer): { envelopes: Envelope[]; rest: number } {
  const envelopes: Envelope[] = [];
  let at = 0;
  while (at + 5 <= body.byteLength) {
    const flags = body[at] as number;
    const length = body.readUInt32BE(at + 1);
    if (at + 5 + length > body.byteLength) break;
    envelopes.push({ flags, data: body.subarray(at + 5, at + 5 + length) });
    at += 5 + length;
  }
  return { envelopes, rest: body.byteLength - at };
}

// ---- what every answer must satisfy ---------------------------------------------------------

/** Connect's codes and the HTTP status each maps to. */
export const connectCodes: Readonly<Record<string, number>> = {
  canceled: 499,
  unknown: 500,
  invalid_argument: 400,
  deadline_exceeded: 504,
  not_found: 404,
  already_exists: 409,
  permission_denied: 403,
  resource_exhausted: 429,
  failed_precondition: 400,
  aborted: 409,
  out_of_range: 400,
  unimplemented: 501,
  internal: 500,
  unavailable: 503,
  data_loss: 500,
  unauthenticated: 401,
};

/** Error messages quote at most a short prefix of what the caller sent. */
export const maxMessageLength = 1000;

/** The outcome of one answer, for the report: status and code (or what went wrong). */
export interface Outcome {
  readonly status: number;
  readonly code?: string;
  readonly message?: string;
  /** Whether the call counts as refused (nothing may have been written). */
  readonly refused: boolean;
  readonly problems: string[];
}

const preview = (s: string, n = 160) =>
  JSON.stringify(s.length > n ? `${s.slice(0, n)}…(${s.length} chars)` : s);

/** Checks a Connect error JSON ({code, message}); answers the problems. */
function checkErrorJson(
  text: string,
  where: string,
  isStream: boolean,
): { code?: string; message?: string; problems: string[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {
      problems: [`not Connect error JSON: ${where} is ${preview(text)}`],
    };
  }
  if (typeof parsed !== "object" || parsed === null) {
    return { problems: [`not Connect error JSON: ${where} is ${preview(text)}`] };
  }
  const { code, message } = parsed as { code?: unknown; message?: unknown };
  const problems: string[] = [];
  const codeName = typeof code === "string" ? code : undefined;
  const messageText = typeof message === "string" ? message : undefined;
  if (codeName === undefined || !(codeName in connectCodes)) {
    problems.push(`not a Connect code: ${where} has code ${JSON.stringify(code)}`);
  } else if (
    isStream &&
    (connectCodes[codeName] as number) >= 500 &&
    // Connect's own code for a protocol it does not take (an unknown compression, not
    // exactly one request message): what a unary call answers with a 4xx status.
    codeName !== "unimplemented"
  ) {
    problems.push(`5xx code: ${where} has code ${codeName} (HTTP ${connectCodes[codeName]})`);
  }
  if (messageText === undefined || messageText === "") {
    problems.push(`no message: ${where} is ${preview(text)}`);
  } else if (messageText.length > maxMessageLength) {
    problems.push(
      `long message: ${where} has ${messageText.length} chars (echoes the input?): ${preview(messageText)}`,
    );
  }
  return {
    ...(codeName === undefined ? {} : { code: codeName }),
    ...(messageText === undefined ? {} : { message: messageText }),
    problems,
  };
}

/**
 * Judges one answer: never a 5xx (nor a stream ending with a 5xx-class code), every error
 * in the Connect shape with a bounded message, a stream's framing intact.
 */
export function judge(res: RawResponse, opts: { stream: boolean }): Outcome {
  if (res.status === 0) {
    return { status: 0, refused: true, problems: [`no answer: ${res.error ?? "?"}`] };
  }
  const text = res.body.toString("utf8");
  const problems: string[] = [];
  if (res.status >= 500) problems.push(`5xx: HTTP ${res.status}`);
  if (res.status !== 200) {
    const e = checkErrorJson(text, `HTTP ${res.status} body`, false);
    return {
      status: res.status,
      ...(e.code === undefined ? {} : { code: e.code }),
      ...(e.message === undefined ? {} : { message: e.message }),
      refused: true,
      problems: [...problems, ...e.problems],
    };
  }
  if (!opts.stream || !res.contentType.startsWith("application/connect+")) {
    if (res.contentType.startsWith("application/json")) {
      try {
        JSON.parse(text);
      } catch {
        problems.push(`bad answer: HTTP 200 JSON that does not parse: ${preview(text)}`);
      }
    }
    return { status: 200, refused: false, problems };
  }
  // A stream: data envelopes, then (unless we hung up first) one end-stream envelope.
  const { envelopes, rest } = parseEnvelopes(res.body);
  const end = envelopes.find((e) => (e.flags & envelopeFlags.endStream) !== 0);
  if (!end) {
    // (Cut by us, the last envelope may be incomplete: nothing to judge.)
    if (!res.cut) {
      problems.push(
        `stream framing: it ended without an end-stream envelope${rest > 0 ? ` (${rest} bytes of a broken one)` : ""}`,
      );
    }
    return { status: 200, refused: false, problems };
  }
  if (end !== envelopes[envelopes.length - 1]) {
    problems.push("stream framing: data after the end-stream envelope");
  }
  let endJson: { error?: unknown };
  try {
    endJson = JSON.parse(end.data.toString("utf8"));
  } catch {
    problems.push(`stream framing: end-stream is not JSON: ${preview(end.data.toString("utf8"))}`);
    return { status: 200, refused: true, problems };
  }
  if (endJson.error === undefined) return { status: 200, refused: false, problems };
  const e = checkErrorJson(JSON.stringify(endJson.error), "end-stream error", true);
  return {
    status: 200,
    ...(e.code === undefined ? {} : { code: e.code }),
    ...(e.message === undefined ? {} : { message: e.message }),
    refused: true,
    problems: [...problems, ...e.problems],
  };
}
