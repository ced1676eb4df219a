import type { Interceptor } from "@connectrpc/connect";
import { type Caller, callerKey } from "./context.ts";

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
