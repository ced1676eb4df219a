/**
 * A device's SyncService client for Push and Pull: Connect unary calls over
 * `fetch` in the binary encoding, with the hot messages written and read by
 * wire.ts instead of protobuf-es reflection. Errors come back as the
 * ConnectError a generated Connect client would throw (code, message,
 * metadata, and details such as PushRejection for `findDetails`).
 *
 * Subscribe (a server stream) and every other call go through an ordinary
 * Connect client: they carry no bulk.
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  codeFromHttpStatus,
  contentTypeUnaryProto,
  errorFromJsonBytes,
  protocolVersion,
} from "@connectrpc/connect/protocol-connect";
import {
  PullRequestSchema,
  type PushResponse,
  PushResponseSchema,
  SyncService,
} from "@hivekeep/proto";
import {
  decodePullResponse,
  encodePushRequest,
  type PullPage,
  readPullHead,
  type SyncChange,
} from "./wire.ts";

/** A response body that does not decode is the server's fault: internal. */
function decoded<T>(bytes: Uint8Array, decode: (bytes: Uint8Array) => T): T {
  try {
    return decode(bytes);
  } catch (err) {
    throw ConnectError.from(err, Code.Internal);
  }
}

export interface SyncClientOptions {
  /** Where the Connect services are served, e.g. `https://hivekeep.example`. */
  readonly baseUrl: string;
  /** Defaults to the global `fetch`. */
  readonly fetch?: typeof globalThis.fetch;
  /** Headers for every call, e.g. `{ authorization: "Bearer …" }`. */
  readonly headers?: () => RequestInit["headers"];
}

export interface SyncClient {
  /** Push one batch (at most 5000 changes); throws ConnectError on rejection. */
  push(changes: readonly SyncChange[], signal?: AbortSignal): Promise<PushResponse>;
  /** One page of the feed after `cursor` ("" = the start); `limit` 0 = the server's default. */
  pull(cursor: string, limit?: number, signal?: AbortSignal): Promise<PullPage>;
  /**
   * The feed after `cursor`, page by page, up to its end. The next page is
   * asked for as soon as a page arrives, before that page is decoded and
   * handed over, so the server reads it while the device applies this one
   * (and a slow link's round trip is hidden). Stopping early cancels it.
   */
  pages(cursor: string, limit?: number, signal?: AbortSignal): AsyncGenerator<PullPage>;
}

export function createSyncClient(options: SyncClientOptions): SyncClient {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const base = options.baseUrl.replace(/\/+$/, "");

  async function unary(method: string, body: Uint8Array, signal?: AbortSignal) {
    const headers = new Headers(options.headers?.());
    headers.set("content-type", contentTypeUnaryProto);
    headers.set("connect-protocol-version", protocolVersion);
    let response: Response;
    try {
      response = await doFetch(`${base}/${SyncService.typeName}/${method}`, {
        method: "POST",
        headers,
        body: body as RequestInit["body"],
        signal,
      });
    } catch (err) {
      throw ConnectError.from(err, Code.Unavailable);
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (response.status !== 200) {
      // Connect sends unary errors as JSON; anything else (a proxy's page)
      // gets the code its HTTP status maps to.
      const fallback = new ConnectError(
        `HTTP ${response.status} ${response.statusText}`.trim(),
        codeFromHttpStatus(response.status),
        response.headers,
      );
      const isJson = /^application\/json/i.test(response.headers.get("content-type") ?? "");
      throw isJson ? errorFromJsonBytes(bytes, response.headers, fallback) : fallback;
    }
    const type = response.headers.get("content-type") ?? "";
    if (!/^application\/proto(;|$)/i.test(type)) {
      throw new ConnectError(
        `unexpected response content type ${JSON.stringify(type)}`,
        Code.Internal,
      );
    }
    return bytes;
  }

  return {
    async push(changes, signal) {
      const bytes = await unary(SyncService.method.push.name, encodePushRequest(changes), signal);
      return decoded(bytes, (b) => fromBinary(PushResponseSchema, b));
    },
    async pull(cursor, limit = 0, signal) {
      return decoded(await pullBytes(cursor, limit, signal), decodePullResponse);
    },
    async *pages(cursor, limit = 0, signal) {
      const stop = new AbortController();
      const onAbort = () => stop.abort(signal?.reason);
      signal?.addEventListener("abort", onAbort, { once: true });
      try {
        let next: Promise<Uint8Array> | undefined = pullBytes(cursor, limit, stop.signal);
        while (next !== undefined) {
          const bytes: Uint8Array = await next;
          const head = decoded(bytes, readPullHead);
          next = head.hasMore ? pullBytes(head.nextCursor, limit, stop.signal) : undefined;
          // Awaited on the next turn; until then a failure is not unhandled.
          next?.catch(() => {});
          yield decoded(bytes, decodePullResponse);
        }
      } finally {
        signal?.removeEventListener("abort", onAbort);
        stop.abort();
      }
    },
  };

  function pullBytes(cursor: string, limit: number, signal?: AbortSignal): Promise<Uint8Array> {
    const request = toBinary(PullRequestSchema, create(PullRequestSchema, { cursor, limit }));
    return unary(SyncService.method.pull.name, request, signal);
  }
}
