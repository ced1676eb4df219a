/**
 * The one place where errors become wire codes, for the server and the device alike. Domain
 * errors map by what the caller does next; anything unexpected becomes `internal` with a generic
 * message (the original is kept as `cause` for logs, never sent).
 */
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { DomainError } from "../core/domain-error.ts";

const domainCodes = {
  invalid: Code.InvalidArgument,
  not_found: Code.NotFound,
  precondition: Code.FailedPrecondition,
} as const;

export function toConnectError(err: unknown): ConnectError {
  if (err instanceof ConnectError) return err;
  if (err instanceof DomainError) return new ConnectError(err.message, domainCodes[err.code]);
  return new ConnectError("internal error", Code.Internal, undefined, undefined, err);
}

export const invalidArgument = (message: string): ConnectError =>
  new ConnectError(message, Code.InvalidArgument);

/**
 * Normalises every error of a call with toConnectError; `onInternal` sees the cause of an
 * `internal` one (the server logs it).
 */
export function errorInterceptor(
  onInternal: (cause: unknown, procedure: string) => void = () => {},
): Interceptor {
  return (next) => async (req) => {
    try {
      return await next(req);
    } catch (err) {
      const ce = toConnectError(err);
      if (ce.cause !== undefined && ce.code === Code.Internal) onInternal(ce.cause, req.url);
      throw ce;
    }
  };
}
