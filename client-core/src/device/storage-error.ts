/**
 * A local write the device cannot store (its storage is full, or the browser refuses to write)
 * becomes a clear error for the caller; the transaction is rolled back, so nothing of the write
 * is kept or queued. Other failures are left to the one error mapping (ops/errors.ts).
 */
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";

const names = (err: unknown): string[] => {
  const found: string[] = [];
  for (let e = err, depth = 0; e && typeof e === "object" && depth < 4; depth++) {
    const { name, inner, cause } = e as { name?: unknown; inner?: unknown; cause?: unknown };
    if (typeof name === "string") found.push(name);
    e = inner ?? cause;
  }
  return found;
};

/** The error to answer for a storage failure, or undefined when `err` is another failure. */
export function storageError(err: unknown): ConnectError | undefined {
  const seen = names(err);
  if (seen.includes("QuotaExceededError")) {
    return new ConnectError(
      "this device's storage is full: nothing was saved; free some space (or sync and remove old photos) and try again",
      Code.ResourceExhausted,
    );
  }
  if (
    seen.some(
      (n) => n === "UnknownError" || n === "InvalidStateError" || n === "DatabaseClosedError",
    )
  ) {
    return new ConnectError(
      "this device could not write its local data: nothing was saved; reload the app and try again",
      Code.Unavailable,
    );
  }
  return undefined;
}

export const storageErrorInterceptor: Interceptor = (next) => async (req) => {
  try {
    return await next(req);
  } catch (err) {
    throw storageError(err) ?? err;
  }
};
