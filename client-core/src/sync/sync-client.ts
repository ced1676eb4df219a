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
import { decodePullResponse, encodePushRequest, type PullPage, type SyncChange } from "./wire.ts";

/**
 * A Pull response header with the next page's cursor, sent when more pages
 * follow. It is only a hint for asking ahead: the body's `next_cursor` and
 * `has_more` decide.
 */
export const nextPageHeader = "hivekeep-next-cursor";

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
   * asked for as soon as this one's headers name its cursor (`nextPageHeader`),
   * while this one's body is still arriving and being decoded, so the server
   * reads the next page meanwhile (and a slow link's round trip is hidden).
   * Stopping early cancels it.
   */
  pages(cursor: string, limit?: number, signal?: AbortSignal): AsyncGenerator<PullPage>;
}

export function createSyncClient(options: SyncClientOptions): SyncClient {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const base = options.baseUrl.replace(/\/+$/, "");

  /** A call's response once its headers are in; an error status throws (reading the error body). */
  async function call(method: string, body: Uint8Array, signal?: AbortSignal): Promise<Response> {
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
    if (response.status !== 200) {
      const bytes = await bodyBytes(response);
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
    return response;
  }

  async function unary(method: string, body: Uint8Array, signal?: AbortSignal) {
    return bodyBytes(await call(method, body, signal));
  }

  return {
    async push(changes, signal) {
      const bytes = await unary(SyncService.method.push.name, encodePushRequest(changes), signal);
      return decoded(bytes, (b) => fromBinary(PushResponseSchema, b));
    },
    async pull(cursor, limit = 0, signal) {
      const bytes = await unary(SyncService.method.pull.name, pullRequest(cursor, limit), signal);
      return decoded(bytes, decodePullResponse);
    },
    async *pages(cursor, limit = 0, signal) {
      // The requests under way; each is cancelled when the generator ends or
      // `signal` fires.
      const live = new Set<AbortController>();
      const cancelAll = () => {
        for (const request of live) request.abort(signal?.reason);
      };
      signal?.addEventListener("abort", cancelAll, { once: true });
      const ask = (from: string) => {
        const request = new AbortController();
        live.add(request);
        if (signal?.aborted) request.abort(signal.reason);
        const response = pullResponse(from, limit, request.signal);
        // Awaited later; until then a failure is not unhandled.
        response.catch(() => {});
        return {
          from,
          response,
          cancel: () => request.abort(),
          done: () => live.delete(request),
        };
      };
      try {
        let next: ReturnType<typeof ask> | undefined = ask(cursor);
        while (next !== undefined) {
          const response: Response = await next.response;
          // The server names the next page's cursor in a header, so that page
          // is asked for while this one's body is still arriving.
          const hint = response.headers.get(nextPageHeader);
          const ahead = hint === null ? undefined : ask(hint);
          const page = decoded(await bodyBytes(response), decodePullResponse);
          next.done();
          // The body decides; a hint it does not confirm is dropped.
          if (ahead !== undefined && (!page.hasMore || ahead.from !== page.nextCursor)) {
            ahead.cancel();
            ahead.done();
          }
          next = !page.hasMore
            ? undefined
            : ahead?.from === page.nextCursor
              ? ahead
              : ask(page.nextCursor);
          yield page;
        }
      } finally {
        signal?.removeEventListener("abort", cancelAll);
        cancelAll();
      }
    },
  };

  function pullResponse(cursor: string, limit: number, signal?: AbortSignal): Promise<Response> {
    return call(SyncService.method.pull.name, pullRequest(cursor, limit), signal);
  }

  function pullRequest(cursor: string, limit: number): Uint8Array {
    return toBinary(PullRequestSchema, create(PullRequestSchema, { cursor, limit }));
  }
}

/** A response's body; a failure while reading it is unavailable, like a failed fetch. */
async function bodyBytes(response: Response): Promise<Uint8Array> {
  try {
    return new Uint8Array(await response.arrayBuffer());
  } catch (err) {
    throw ConnectError.from(err, Code.Unavailable);
  }
}
