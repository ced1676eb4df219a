/**
 * The feed half of the device's SyncService client: Pull, page by page, over Connect unary calls
 * in the binary encoding, with the bulk message (PullResponse) read by protocol/wire.ts. It imports no
 * protobuf reflection and no generated descriptors, so the pull Worker, which runs only this,
 * stays small (the first visit downloads it). sync-client.ts adds Push and uses `syncCall` too.
 * Errors come back as the ConnectError a generated Connect client would throw.
 */
import { BinaryWriter } from "@bufbuild/protobuf/wire";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  codeFromHttpStatus,
  contentTypeUnaryProto,
  errorFromJsonBytes,
  protocolVersion,
} from "@connectrpc/connect/protocol-connect";
import { nextPageHeader } from "../protocol/headers.ts";
import { decodePullResponse, type PullPage } from "../protocol/wire.ts";

/** The service's full name (`SyncService.typeName`, without loading its descriptor). */
export const syncServiceName = "hivekeep.v1.SyncService";

export interface SyncClientOptions {
  /** Where the Connect services are served, e.g. `https://hivekeep.example`. */
  readonly baseUrl: string;
  /** Defaults to the global `fetch`. */
  readonly fetch?: typeof globalThis.fetch;
  /** Headers for every call, e.g. `{ authorization: "Bearer …" }`. */
  readonly headers?: () => RequestInit["headers"];
  /**
   * Pull photos by reference (PullRequest.photo_refs; core/photo-ref.ts), as a device does:
   * it fetches a photo when it is shown. Default false: the feed as stored.
   */
  readonly photoRefs?: boolean;
  /**
   * The readings window (PullRequest.reading_days; core/readings-window.ts): readings older
   * than this many days are left out. Default 0: every reading.
   */
  readonly readingDays?: number;
}

export interface FeedClient {
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

/** A response body that does not decode is the server's fault: internal. */
export function decoded<T>(bytes: Uint8Array, decode: (bytes: Uint8Array) => T): T {
  try {
    return decode(bytes);
  } catch (err) {
    throw ConnectError.from(err, Code.Internal);
  }
}

/** A response's body; a failure while reading it is unavailable, like a failed fetch. */
export async function bodyBytes(response: Response): Promise<Uint8Array> {
  try {
    return new Uint8Array(await response.arrayBuffer());
  } catch (err) {
    throw ConnectError.from(err, Code.Unavailable);
  }
}

/**
 * PullRequest { cursor = 1; limit = 2; photo_refs = 3; reading_days = 4 } (sync.proto), as
 * protobuf-es would write it.
 */
export function encodePullRequest(
  cursor: string,
  limit: number,
  photoRefs = false,
  readingDays = 0,
): Uint8Array {
  const w = new BinaryWriter();
  if (cursor !== "") w.tag(1, 2).string(cursor);
  if (limit !== 0) w.tag(2, 0).int32(limit);
  if (photoRefs) w.tag(3, 0).bool(true);
  if (readingDays !== 0) w.tag(4, 0).int32(readingDays);
  return w.finish();
}

/**
 * The code of an error answer that is not Connect's: Connect's mapping of HTTP statuses, but 413
 * Content Too Large (a proxy's body limit), which it leaves `unknown`, is `resource_exhausted`, the
 * code of the server's own answer to a body over its limit: the device halves a Push on it.
 */
export const httpStatusCode = (status: number): Code =>
  status === 413 ? Code.ResourceExhausted : codeFromHttpStatus(status);

/** One unary SyncService call: its response once its headers are in; an error status throws. */
export function syncCall(options: SyncClientOptions) {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const base = options.baseUrl.replace(/\/+$/, "");
  /** A call's response once its headers are in; an error status throws (reading the error body). */
  async function call(method: string, body: Uint8Array, signal?: AbortSignal): Promise<Response> {
    const headers = new Headers(options.headers?.());
    headers.set("content-type", contentTypeUnaryProto);
    headers.set("connect-protocol-version", protocolVersion);
    let response: Response;
    try {
      response = await doFetch(`${base}/${syncServiceName}/${method}`, {
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
      // gets the code its HTTP status maps to (`httpStatusCode`).
      const fallback = new ConnectError(
        `HTTP ${response.status} ${response.statusText}`.trim(),
        httpStatusCode(response.status),
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

  return call;
}

export function createFeedClient(options: SyncClientOptions): FeedClient {
  const call = syncCall(options);
  const pullResponse = (cursor: string, limit: number, signal?: AbortSignal) =>
    call("Pull", encodePullRequest(cursor, limit, options.photoRefs, options.readingDays), signal);
  return {
    async pull(cursor, limit = 0, signal) {
      return decoded(
        await bodyBytes(await pullResponse(cursor, limit, signal)),
        decodePullResponse,
      );
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
}
