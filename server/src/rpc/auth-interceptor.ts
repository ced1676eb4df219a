import type { DescMethod } from "@bufbuild/protobuf";
import { Code, ConnectError, createContextKey, type Interceptor } from "@connectrpc/connect";
import { isReadMethod, readOnlyError } from "@hivekeep/client-core/ops";
import { AuthService } from "@hivekeep/proto";
import type { Caller } from "../auth/caller.ts";
import { callerForToken } from "../auth/caller-store.ts";
import type { Queryable } from "../db/db.ts";
import { callerKey } from "./context.ts";

/**
 * Self-hosted single-user mode (HIVEKEEP_AUTH=none): every request acts as the
 * one local user of the one local organization; no header is needed.
 */
export function localCallerInterceptor(caller: Caller): Interceptor {
  return (next) => (req) => {
    req.contextValues.set(callerKey, caller);
    return next(req);
  };
}

/** AuthService methods that are how a caller gets a token in the first place. */
const publicMethods = new Set(["SignUp", "Login", "StartDemo"]);

/** Whether a method is called without a token (sign-up, login, demo). */
export function isPublicMethod(method: DescMethod): boolean {
  return method.parent.typeName === AuthService.typeName && publicMethods.has(method.name);
}

/** `Authorization: Bearer <token>` → token; undefined when absent or malformed. */
export function bearerToken(header: string | null): string | undefined {
  const m = /^Bearer[ \t]+([A-Za-z0-9_\-.~+/]+=*)[ \t]*$/i.exec(header ?? "");
  return m?.[1];
}

/**
 * The caller of an `Authorization` header: a missing, malformed, unknown, expired or revoked
 * token is `unauthenticated`. The HTTP edge calls it before reading the request body (so a
 * stranger cannot make the server read megabytes), and the interceptor when the edge did not.
 */
export async function authenticate(db: Queryable, authorization: string | null): Promise<Caller> {
  const token = bearerToken(authorization);
  if (token === undefined) {
    throw new ConnectError(
      "sign in first: send Authorization: Bearer <session token or API key>",
      Code.Unauthenticated,
    );
  }
  const caller = await callerForToken(db, token);
  if (caller === undefined) {
    throw new ConnectError(
      "the token is unknown, expired or revoked; sign in again",
      Code.Unauthenticated,
    );
  }
  return caller;
}

/** The caller the HTTP edge found for the request's token: the token is looked up once. */
export const edgeCallerKey = createContextKey<Caller | undefined>(undefined, {
  description: "the caller the HTTP edge authenticated before reading the body",
});

/**
 * Hosted mode (HIVEKEEP_AUTH=login): every request but sign-in carries
 * `Authorization: Bearer <session token or API key>`. A missing, unknown,
 * expired or revoked token is `unauthenticated`; a demo session calling a
 * write is `permission_denied` before the handler looks anything up.
 */
export function loginInterceptor(db: Queryable): Interceptor {
  return (next) => async (req) => {
    if (isPublicMethod(req.method)) return next(req);
    const caller =
      req.contextValues.get(edgeCallerKey) ??
      (await authenticate(db, req.header.get("Authorization")));
    if (caller.demo && !isReadMethod(req.method.name)) {
      throw readOnlyError(req.method.name);
    }
    req.contextValues.set(callerKey, caller);
    return next(req);
  };
}
