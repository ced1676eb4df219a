import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
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

/** `Authorization: Bearer <token>` → token; undefined when absent or malformed. */
export function bearerToken(header: string | null): string | undefined {
  const m = /^Bearer[ \t]+([A-Za-z0-9_\-.~+/]+=*)[ \t]*$/i.exec(header ?? "");
  return m?.[1];
}

/**
 * Hosted mode (HIVEKEEP_AUTH=login): every request but sign-in carries
 * `Authorization: Bearer <session token or API key>`. A missing, unknown,
 * expired or revoked token is `unauthenticated`; a demo session calling a
 * write is `permission_denied` before the handler looks anything up.
 */
export function loginInterceptor(db: Queryable): Interceptor {
  return (next) => async (req) => {
    if (req.service.typeName === AuthService.typeName && publicMethods.has(req.method.name)) {
      return next(req);
    }
    const token = bearerToken(req.header.get("Authorization"));
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
    if (caller.demo && !isReadMethod(req.method.name)) {
      throw readOnlyError(req.method.name);
    }
    req.contextValues.set(callerKey, caller);
    return next(req);
  };
}
