/**
 * The one place where errors become wire codes. Domain errors map by what the
 * caller does next; anything unexpected becomes `internal` with a generic
 * message (the original is kept as `cause` and logged, never sent).
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { DomainError } from "@hivekeep/client-core/core";

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
