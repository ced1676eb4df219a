/**
 * The HTTP surface on one port: Connect RPCs at POST /hivekeep.v1.<Service>/<Method>
 * (JSON and binary), health probes, and the built PWA with an SPA fallback.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { DescMethod } from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  createConnectRouter,
  createContextValues,
  type Interceptor,
} from "@connectrpc/connect";
import type { UniversalHandler } from "@connectrpc/connect/protocol";
import { nextPageHeader } from "@hivekeep/client-core/protocol";
import type { HttpBindings } from "@hono/node-server";
import { serveStatic } from "@hono/node-server/serve-static";
import { type Context, Hono } from "hono";
import { cors } from "hono/cors";
import { requestId } from "hono/request-id";
import type { Logger } from "pino";
import type { Caller } from "../auth/caller.ts";
import { type Db, unreadyReason } from "../db/db.ts";
import { edgeCallerKey } from "../rpc/auth-interceptor.ts";
import { clientAddressKey } from "../rpc/context.ts";
import type { Deps } from "../rpc/deps.ts";
import { idempotencyInterceptor, idempotencyKeyHeader } from "../rpc/idempotency.ts";
import { errorInterceptor, routes } from "../rpc/router.ts";
import {
  answerRefused,
  answerRpc,
  answerUnread,
  gzipRequests,
  neverCompressResponses,
  requestJsonOptions,
  unreadableRequests,
} from "./rpc-edge.ts";
import { securityHeaders } from "./security-headers.ts";

export interface AppOptions {
  readonly deps: Deps;
  readonly db: Db;
  readonly log: Logger;
  readonly authInterceptor: Interceptor;
  readonly maxBodyBytes: number;
  readonly corsOrigins: readonly string[];
  /**
   * Hosted mode: the HTTP edge authenticates a request before reading its body (issue 27,
   * finding 8). Absent in single-user mode, where nobody signs in.
   */
  readonly edgeAuth?: EdgeAuth;
  /** Take the client address from X-Forwarded-For (set by a trusted reverse proxy). */
  readonly trustProxy?: boolean;
  readonly pwaDir: string;
}

/** How the edge tells a signed-in caller from a stranger (auth-interceptor.ts in hosted mode). */
export interface EdgeAuth {
  /** Whether the method is called without a token (sign-up, login, demo). */
  isPublic(method: DescMethod): boolean;
  /** The caller of an Authorization header; a ConnectError `unauthenticated` for none. */
  authenticate(authorization: string | null): Promise<Caller>;
}

/**
 * The most a request without a valid token makes the server read (hosted mode): a sign-in
 * method's whole body, or what is drained of a refused request's body to keep its connection.
 * A sign-up or login is a few hundred bytes; HIVEKEEP_MAX_BODY (8 MiB) is for a signed-in
 * device's Pushes.
 */
export const unauthenticatedMaxBytes = 64 * 1024;

type Env = { Bindings: HttpBindings; Variables: { requestId: string } };

const rpcPrefix = "/hivekeep.v1.";

export function createApp(opts: AppOptions): Hono<Env> {
  const app = new Hono<Env>();
  app.use(requestId());
  app.use(securityHeaders(opts.corsOrigins));
  app.use(async (c, next) => {
    const start = performance.now();
    await next();
    opts.log.info(
      {
        requestId: c.get("requestId"),
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - start) * 10) / 10,
      },
      "request",
    );
  });
  if (opts.corsOrigins.length > 0) {
    app.use(
      cors({
        origin: [...opts.corsOrigins],
        allowMethods: ["GET", "POST", "OPTIONS"],
        allowHeaders: [
          "Content-Type",
          "Authorization",
          "Connect-Protocol-Version",
          "Connect-Timeout-Ms",
          idempotencyKeyHeader,
        ],
        exposeHeaders: ["Content-Type", "Connect-Protocol-Version", "Retry-After", nextPageHeader],
        maxAge: 3600,
      }),
    );
  }

  // One set of running keys for both routers.
  const keyedCalls = idempotencyInterceptor(opts.deps);
  const newRouter = (readMaxBytes: number) =>
    createConnectRouter({
      grpc: false,
      grpcWeb: false,
      connect: true,
      readMaxBytes,
      jsonOptions: requestJsonOptions,
      acceptCompression: [gzipRequests],
      compressMinBytes: neverCompressResponses,
      shutdownSignal: opts.deps.shutdown,
      interceptors: [
        unreadableRequests,
        errorInterceptor(opts.deps),
        opts.authInterceptor,
        keyedCalls,
      ],
    });
  const register = routes(opts.deps);
  const router = newRouter(opts.maxBodyBytes);
  register(router);
  // Hosted mode: the sign-in methods are read with the small limit (gzip inflated included),
  // through the same service implementations.
  const publicRouter = newRouter(Math.min(unauthenticatedMaxBytes, opts.maxBodyBytes));
  if (opts.edgeAuth) register(publicRouter);
  for (const handler of router.handlers) {
    const small = publicRouter.handlers.find((h) => h.requestPath === handler.requestPath);
    mount(app, handler, small, opts);
  }

  // Nobody is authenticated for a method that does not exist: in hosted mode its body is read
  // no further than any other stranger's.
  const unknownDrainBytes = opts.edgeAuth ? unauthenticatedMaxBytes : undefined;
  app.all(`${rpcPrefix}*`, (c) =>
    answerUnread(
      c.req.raw,
      404,
      {
        code: "unimplemented",
        message: `no such method: ${c.req.method} ${c.req.path.slice(0, 200)}`,
      },
      unknownDrainBytes,
    ),
  );

  app.get("/healthz", (c) => c.json({ status: "ok" }));
  // Ready while the database answers; not ready (503) while it is away, answered within
  // readyTimeoutMs even when the database does not answer at all.
  const readyTimeoutMs = 3_000;
  app.get("/readyz", async (c) => {
    const reason = await unreadyReason(opts.db, readyTimeoutMs);
    if (reason === undefined) return c.json({ status: "ok", database: opts.db.kind });
    opts.log.warn({ err: reason }, "readiness check failed");
    return c.json({ status: "unavailable", database: opts.db.kind }, 503);
  });

  servePwa(app, opts.pwaDir);
  return app;
}

/**
 * The client's address: the socket peer, or behind a proxy the last X-Forwarded-For hop, the
 * one the proxy added. The hops before it are whatever the client sent, so the sign-in
 * throttle would count a made-up address for every attempt if it believed them.
 */
function clientAddress(c: Context<Env>, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header("X-Forwarded-For")?.split(",").at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  return c.env?.incoming?.socket?.remoteAddress ?? "unknown";
}

/**
 * Mounts one method. In hosted mode a request is authenticated from its headers before any of
 * its body is read: without a valid token it is answered `unauthenticated` at once, with at most
 * `unauthenticatedMaxBytes` of its body read (a larger one is left unread and its connection
 * closed); a sign-in method is read with that limit; a signed-in caller's body may be as large as
 * HIVEKEEP_MAX_BODY, and the caller found here is handed to the interceptor (one lookup).
 */
function mount(
  app: Hono<Env>,
  handler: UniversalHandler,
  publicHandler: UniversalHandler | undefined,
  opts: AppOptions,
): void {
  const edgeAuth = opts.edgeAuth;
  app.all(handler.requestPath, async (c) => {
    const request = c.req.raw;
    const values = createContextValues().set(
      clientAddressKey,
      clientAddress(c, opts.trustProxy ?? false),
    );
    // Single-user mode; and a method Connect refuses anyway (405) answers as it always did.
    if (edgeAuth === undefined || !["POST", "GET"].includes(request.method)) {
      return answerRpc(handler, request, values);
    }
    if (edgeAuth.isPublic(handler.method)) {
      return answerRpc(publicHandler ?? handler, request, values, unauthenticatedMaxBytes);
    }
    let caller: Caller;
    try {
      caller = await edgeAuth.authenticate(request.headers.get("Authorization"));
    } catch (err) {
      if (err instanceof ConnectError && err.code === Code.Unauthenticated) {
        return answerRefused(request, err, unauthenticatedMaxBytes);
      }
      // The lookup failed (the database is away): the interceptor tries again and its
      // failure is answered as every other one is (unavailable, internal).
      return answerRpc(handler, request, values);
    }
    return answerRpc(handler, request, values.set(edgeCallerKey, caller));
  });
}

function servePwa(app: Hono<Env>, dir: string): void {
  const index = join(dir, "index.html");
  if (!existsSync(index)) {
    app.get("*", (c) =>
      c.html(
        `<!doctype html><meta charset="utf-8"><title>Hivekeep</title>
<h1>Hivekeep</h1><p>The server is running. The web app has not been built yet:
run <code>pnpm build</code> (or <code>pnpm start</code>, which builds it).</p>`,
      ),
    );
    return;
  }
  // Vite's hashed assets never change; everything else (index.html, sw.js,
  // the manifest) must be revalidated so an update reaches devices.
  const cacheHeaders = (path: string, c: Context<Env>) => {
    c.header(
      "Cache-Control",
      path.includes("/assets/") ? "public, max-age=31536000, immutable" : "no-cache",
    );
  };
  app.use("*", serveStatic({ root: dir, onFound: cacheHeaders }));
  // SPA fallback: client-side routes load the app shell.
  app.get(
    "*",
    serveStatic({ root: dir, rewriteRequestPath: () => "/index.html", onFound: cacheHeaders }),
  );
}
