/**
 * A read-only session (the hosted demo): what it may call, for the server's auth check and the
 * device's local services alike.
 */
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";

/**
 * Reads of every service (an export is a read), the feed, and the caller's own session. Anything
 * else is a write. Matching by name keeps a new write method denied by default unless it is
 * named like a read.
 */
export function isReadMethod(name: string): boolean {
  return /^(Get|List|Export)[A-Z]/.test(name) || /^(Pull|Subscribe|WhoAmI|Logout)$/.test(name);
}

export function readOnlyError(method: string): ConnectError {
  return new ConnectError(
    `a demo session is read-only: ${method} is not allowed`,
    Code.PermissionDenied,
  );
}

/** Refuses every write while `isReadOnly()` says so, before the operation looks at anything. */
export function readOnlyInterceptor(isReadOnly: () => boolean): Interceptor {
  return (next) => (req) => {
    if (isReadOnly() && !isReadMethod(req.method.name)) throw readOnlyError(req.method.name);
    return next(req);
  };
}
