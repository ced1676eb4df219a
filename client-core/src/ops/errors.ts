/**
 * The one place where errors become wire codes, for the server and the device alike. Domain
 * errors map by what the caller does next; anything unexpected becomes `internal` with a generic
 * message (the original is kept as `cause` for logs, never sent).
 */
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { DomainError, RetryLaterError } from "../core/domain-error.ts";

const domainCodes = {
  invalid: Code.InvalidArgument,
  not_found: Code.NotFound,
  precondition: Code.FailedPrecondition,
  unauthenticated: Code.Unauthenticated,
  permission_denied: Code.PermissionDenied,
  already_exists: Code.AlreadyExists,
  resource_exhausted: Code.ResourceExhausted,
} as const;

/**
 * Something the call needs is away for now (the server's database: a restart, a failover, a
 * dropped connection): the caller tries again later (`unavailable`), as it would after a network
 * error. The message is the caller's; the cause (the driver's error) is kept for logs, never sent.
 * Only the server raises it; a device's operations never do.
 */
export class UnavailableError extends Error {
  override name = "UnavailableError";
}

export function toConnectError(err: unknown): ConnectError {
  if (err instanceof ConnectError) return err;
  if (err instanceof DomainError) {
    // Sent as a response header: a client waits that long without reading the message.
    const headers =
      err instanceof RetryLaterError ? { "Retry-After": String(err.retryAfterSeconds) } : undefined;
    return new ConnectError(err.message, domainCodes[err.code], headers);
  }
  if (err instanceof UnavailableError) {
    return new ConnectError(err.message, Code.Unavailable, undefined, undefined, err.cause);
  }
  return new ConnectError("internal error", Code.Internal, undefined, undefined, err);
}

export const invalidArgument = (message: string): ConnectError =>
  new ConnectError(message, Code.InvalidArgument);

/**
 * Normalises every error of a call with toConnectError, a streamed answer's too (an error
 * thrown while a stream runs would otherwise reach Connect as a bare `internal`, unlogged);
 * `onInternal` sees the cause of an `internal` one (the server logs it).
 */
export function errorInterceptor(
  onInternal: (cause: unknown, procedure: string) => void = () => {},
): Interceptor {
  return (next) => async (req) => {
    const normalise = (err: unknown): ConnectError => {
      const ce = toConnectError(err);
      if (ce.cause !== undefined && ce.code === Code.Internal) onInternal(ce.cause, req.url);
      return ce;
    };
    try {
      const res = await next(req);
      return res.stream ? { ...res, message: normalisedStream(res.message, normalise) } : res;
    } catch (err) {
      throw normalise(err);
    }
  };
}

async function* normalisedStream<T>(
  messages: AsyncIterable<T>,
  normalise: (err: unknown) => ConnectError,
): AsyncGenerator<T> {
  try {
    yield* messages;
  } catch (err) {
    throw normalise(err);
  }
}
