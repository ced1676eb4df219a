/**
 * Errors of domain commands and of the server's account rules, grouped by what the caller does
 * next. They become Connect codes in exactly one place (client-core/src/ops/errors.ts).
 * - invalid: fix the input (invalid_argument)
 * - not_found: the record does not exist in this tenant (not_found)
 * - precondition: the state forbids it now (failed_precondition)
 * - unauthenticated: sign in (again) (unauthenticated)
 * - permission_denied: this caller may not, whatever the input (permission_denied)
 * - already_exists: what the call would create is there already (already_exists)
 * - resource_exhausted: too many attempts; try again later (resource_exhausted)
 */
import { quote } from "./quote.ts";

export type DomainErrorCode =
  | "invalid"
  | "not_found"
  | "precondition"
  | "unauthenticated"
  | "permission_denied"
  | "already_exists"
  | "resource_exhausted";

export class DomainError extends Error {
  override name = "DomainError";
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    /** The request field at fault, when there is one (lowerCamelCase). */
    readonly field?: string,
  ) {
    super(message);
  }
}

/** Over a limit for now: the caller tries again after `retryAfterSeconds` (sent as Retry-After). */
export class RetryLaterError extends DomainError {
  override name = "RetryLaterError";
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super("resource_exhausted", message);
  }
}

export const invalid = (field: string, message: string): DomainError =>
  new DomainError("invalid", message, field);
/** The id is quoted as every echoed input is (quote.ts): at most a short prefix. */
export const notFound = (entity: string, id: string): DomainError =>
  new DomainError("not_found", `${entity} ${quote(id)} not found`);
