/**
 * The edge between HTTP and Connect's handlers (server only; the device parses answers with the
 * same library and must keep Connect's own codes for them).
 *
 * Connect answers some requests it cannot read in ways a caller cannot act on: an empty 415 for a
 * wrong Content-Type, an empty 405 for GET, 500 `internal` for a malformed binary body ("parse
 * binary: premature EOF") or a stream envelope flagged compressed without an encoding, 501 for a
 * Content-Encoding it does not know. Here every one of them becomes a Connect error JSON
 * (`{code, message}`) with a 4xx status, the caller's error:
 *
 * | request                                    | status | code             |
 * |--------------------------------------------|--------|------------------|
 * | GET, PUT, … (every method is POST only)    | 405    | unimplemented    |
 * | a Content-Type the method does not take    | 415    | invalid_argument |
 * | a Content-Encoding other than gzip         | 415    | unimplemented    |
 * | malformed binary message / envelope flags  | 400    | invalid_argument |
 * | broken gzip                                | 400    | invalid_argument |
 * | over the body limit (gzip: once inflated)  | 429    | resource_exhausted |
 *
 * An answer given before the request body has arrived (over the limit by Content-Length, wrong
 * Content-Type) is sent at once, and the rest of the body is read and dropped before the answer
 * ends, so the connection stays usable and a client still uploading can finish and read the
 * answer (closing under it made clients see EPIPE instead). A body announced or found to be
 * larger than `maxDrainBytes` is not drained: the answer says `Connection: close`.
 */
import type { Duplex } from "node:stream";
import { Code, ConnectError, type ContextValues, type Interceptor } from "@connectrpc/connect";
import {
  type Compression,
  type UniversalHandler,
  type UniversalServerResponse,
  universalServerResponseToFetch,
} from "@connectrpc/connect/protocol";
import { codeToHttpStatus, codeToString } from "@connectrpc/connect/protocol-connect";
import { compressionGzip } from "@connectrpc/connect-node";

/** The most request body read and dropped after an early answer (64 MiB, as @hono/node-server). */
export const maxDrainBytes = 64 * 1024 * 1024;

/**
 * Gzip for request bodies (Content-Encoding: gzip, Connect-Content-Encoding: gzip for a stream).
 * The body limit applies to the inflated size too: zlib stops at it (`resource_exhausted`), so a
 * gzip bomb costs at most the limit. A body that is not gzip, or is cut short, is the caller's
 * error, where Connect reports some of them as `internal`.
 */
export const gzipRequests: Compression = {
  name: compressionGzip.name,
  compress: (bytes) => compressionGzip.compress(bytes),
  async decompress(bytes, readMaxBytes) {
    try {
      return await compressionGzip.decompress(bytes, readMaxBytes);
    } catch (err) {
      if (err instanceof ConnectError && err.code === Code.Internal) {
        const cause = err.cause instanceof Error ? `: ${err.cause.message}` : "";
        throw new ConnectError(`the body is not valid gzip${cause}`, Code.InvalidArgument);
      }
      throw err;
    }
  },
};

/**
 * How request JSON is read: a field the message does not have is refused (`invalid_argument`,
 * the message names the field), as the proto3 JSON mapping does by default; Connect's default
 * would drop it without a word, and a scale posting a misspelt or newer field would lose its
 * reading. Both the lowerCamelCase and the snake_case (proto) name of a field are fields.
 * Answers are read the other way round (devices ignore unknown fields, see client-core's
 * `answerJsonOptions`), so an older app keeps working with a newer server.
 */
export const requestJsonOptions = { ignoreUnknownFields: false } as const;

/**
 * Responses are never compressed (the Connect option `compressMinBytes`): a Pull page is framed
 * by hand for speed (pull-encoding.ts), and a reverse proxy may compress what leaves the host.
 */
export const neverCompressResponses = Number.MAX_SAFE_INTEGER;

const binaryParseError = "parse binary: ";
const compressedWithoutEncoding = "received compressed envelope, but do not know how to decompress";

/** Connect's `internal` errors for a request it could not read, as the caller's error. */
function unreadableRequest(code: Code, message: string): ConnectError | undefined {
  if (code !== Code.Internal) return undefined;
  if (message.startsWith(binaryParseError)) {
    return new ConnectError(
      `the body is not a valid binary message: ${message.slice(binaryParseError.length)}`,
      Code.InvalidArgument,
    );
  }
  if (message === compressedWithoutEncoding) {
    return new ConnectError(
      "a message is flagged compressed, but the request names no Connect-Content-Encoding",
      Code.InvalidArgument,
    );
  }
  return undefined;
}

/**
 * A stream reads its request inside the interceptors: its unreadable requests are mapped here
 * (a unary request is read before them, and mapped by `answerRpc`).
 */
export const unreadableRequests: Interceptor = (next) => async (req) => {
  try {
    return await next(req);
  } catch (err) {
    throw (err instanceof ConnectError && unreadableRequest(err.code, err.rawMessage)) || err;
  }
};

/**
 * The request body as Connect reads it, through one reader that stays ours: what Connect leaves
 * unread can be drained after.
 */
export class RequestBody implements AsyncIterable<Uint8Array> {
  ended: boolean;
  private readonly reader: ReadableStreamDefaultReader<Uint8Array> | undefined;

  constructor(body: ReadableStream<Uint8Array> | null) {
    this.reader = body?.getReader();
    this.ended = this.reader === undefined;
  }

  /**
   * The next chunk, or undefined at the end. A body cut short (the client went away) fails:
   * Connect must not take a prefix of it for the whole request.
   */
  async read(): Promise<Uint8Array | undefined> {
    if (this.ended || !this.reader) return undefined;
    try {
      const r = await this.reader.read();
      if (!r.done) return r.value;
    } catch (err) {
      this.ended = true;
      throw err;
    }
    this.ended = true;
    return undefined;
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    return {
      next: async () => {
        const value = await this.read();
        return value === undefined ? { done: true, value: undefined } : { done: false, value };
      },
      // Connect stops early (over the limit): the rest stays for drain().
      return: async () => ({ done: true, value: undefined }),
    };
  }

  /**
   * Reads and drops the rest; false when more than `maxBytes` came (the rest is left). A body
   * cut short ends it: there is nothing more to read.
   */
  async drain(maxBytes: number): Promise<boolean> {
    let bytes = 0;
    try {
      for (let chunk = await this.read(); chunk !== undefined; chunk = await this.read()) {
        bytes += chunk.byteLength;
        if (bytes > maxBytes) return false;
      }
    } catch {
      // The client went away.
    }
    return true;
  }
}

/**
 * Runs one Connect handler for a fetch Request and answers a fetch Response, with the error
 * answers described above.
 */
export async function answerRpc(
  handler: UniversalHandler,
  request: Request,
  contextValues: ContextValues,
  drainMaxBytes = maxDrainBytes,
): Promise<Response> {
  const body = new RequestBody(request.body);
  // Connect takes POST (and GET for a method without side effects); it would run a PUT as a POST.
  const res: UniversalServerResponse = !["POST", "GET"].includes(request.method)
    ? { status: 405 }
    : await handler({
        httpVersion: "1.1",
        method: request.method,
        url: request.url,
        header: request.headers,
        body,
        signal: request.signal,
        contextValues,
      });
  if (res.status === 200) return universalServerResponseToFetch(res);
  const answer = await errorAnswer(handler, res);
  return earlyAnswer(request, body, answer.status, answer.headers, answer.bytes, drainMaxBytes);
}

/**
 * Answers a request refused before its body is read (hosted mode: no valid token), with at most
 * `drainMaxBytes` of the body read: a body announced within it is drained so the connection
 * stays usable, any other (larger, or of unknown length) is left unread and the connection
 * closed after the answer.
 */
export function answerRefused(
  request: Request,
  error: ConnectError,
  drainMaxBytes: number,
): Response {
  const headers = new Headers({ "content-type": "application/json" });
  const bytes = json({ code: codeToString(error.code), message: error.rawMessage });
  const status = codeToHttpStatus(error.code);
  return earlyAnswer(request, new RequestBody(request.body), status, headers, bytes, drainMaxBytes);
}

interface ErrorAnswer {
  status: number;
  headers: Headers;
  bytes: Uint8Array<ArrayBuffer>;
}

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

/** A non-200 answer of Connect, with a Connect error JSON and a 4xx status where it lacked them. */
async function errorAnswer(
  handler: UniversalHandler,
  res: UniversalServerResponse,
): Promise<ErrorAnswer> {
  const headers = new Headers(res.header);
  headers.delete("content-length");
  headers.set("content-type", "application/json");
  const stream = handler.method.methodKind !== "unary";
  if (res.status === 405) {
    headers.set("allow", "POST");
    const message = `${handler.method.parent.name}/${handler.method.name} is called with POST`;
    return { status: 405, headers, bytes: json({ code: "unimplemented", message }) };
  }
  if (res.status === 415) {
    const types = stream
      ? "application/connect+json or application/connect+proto"
      : "application/json or application/proto";
    headers.set("accept-post", types.replace(" or ", ", "));
    const message = `unsupported Content-Type: send ${types}`;
    return { status: 415, headers, bytes: json({ code: "invalid_argument", message }) };
  }
  const bytes = await allBytes(res.body);
  if (res.status !== 500 && res.status !== 501) return { status: res.status, headers, bytes };
  let error: { code?: unknown; message?: unknown };
  try {
    error = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return { status: res.status, headers, bytes };
  }
  const message = typeof error.message === "string" ? error.message : "";
  if (res.status === 500 && error.code === "internal") {
    const mapped = unreadableRequest(Code.Internal, message);
    if (mapped) {
      const answer = { ...error, code: "invalid_argument", message: mapped.rawMessage };
      return { status: 400, headers, bytes: json(answer) };
    }
  }
  // An encoding Connect does not take (it names the ones it does in Accept-Encoding):
  // HTTP's answer to that is 415; the code stays Connect's.
  if (res.status === 501 && error.code === "unimplemented" && headers.has("accept-encoding")) {
    return { status: 415, headers, bytes };
  }
  return { status: res.status, headers, bytes };
}

/** The whole (small) body of an error answer, in a buffer of its own. */
async function allBytes(
  body: AsyncIterable<Uint8Array> | undefined,
): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body ?? []) chunks.push(chunk);
  return new Uint8Array(Buffer.concat(chunks));
}

/**
 * An answer that may come before the whole request body: sent at once, and ended once the rest of
 * the body is drained, so the connection stays in step. Over `drainMaxBytes` (announced, or found
 * while draining) the connection closes after the answer. Below `maxDrainBytes` (a request
 * refused before sign-in), a body of unannounced length is not drained either.
 */
function earlyAnswer(
  request: Request,
  body: RequestBody,
  status: number,
  headers: Headers,
  bytes: Uint8Array<ArrayBuffer>,
  drainMaxBytes = maxDrainBytes,
): Response {
  headers.set("content-length", String(bytes.byteLength));
  if (body.ended) return new Response(bytes, { status, headers });
  const announced = Number(request.headers.get("content-length") ?? Number.NaN);
  const drains =
    drainMaxBytes >= maxDrainBytes ? !(announced > drainMaxBytes) : announced <= drainMaxBytes;
  if (!drains) {
    headers.set("connection", "close");
    return new Response(bytes, { status, headers });
  }
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
    },
    async pull(controller) {
      // Over the bound the answer ends anyway; the server closes the connection it leaves unread.
      await body.drain(drainMaxBytes);
      controller.close();
    },
  });
  return new Response(stream, { status, headers });
}

/**
 * The same early answer for a request no handler takes (an unknown method): the body is drained
 * while the answer goes out (in hosted mode at most as much as of any request without a token).
 */
export function answerUnread(
  request: Request,
  status: number,
  error: object,
  drainMaxBytes = maxDrainBytes,
): Response {
  const headers = new Headers({ "content-type": "application/json" });
  const body = new RequestBody(request.body);
  return earlyAnswer(request, body, status, headers, json(error), drainMaxBytes);
}

/** The parser's refusals that Node would answer itself, with an empty body. */
const parserRefusals: Record<string, { status: string; code: string; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: "431 Request Header Fields Too Large",
    code: "resource_exhausted",
    message: "the request line and headers are over 16 KiB",
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: "408 Request Timeout",
    code: "deadline_exceeded",
    message: "the request did not arrive in time",
  },
};
const malformedHttp = {
  status: "400 Bad Request",
  code: "invalid_argument",
  message: "the request is not valid HTTP/1.1",
};

/**
 * Answers what the HTTP parser refuses before any handler runs (Node's `clientError`: headers
 * over the limit, a request that is not HTTP) with the Connect error JSON, where Node answers an
 * empty body, and closes the connection as Node does.
 */
export function answerParserRefusals(server: {
  on(
    event: "clientError",
    listener: (err: Error & { code?: string }, socket: Duplex) => void,
  ): unknown;
}): void {
  server.on("clientError", (err, socket) => {
    if (!socket.writable || err.code === "ECONNRESET") {
      socket.destroy();
      return;
    }
    const { status, code, message } = parserRefusals[err.code ?? ""] ?? malformedHttp;
    const body = JSON.stringify({ code, message });
    socket.end(
      `HTTP/1.1 ${status}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
