/**
 * Errors of domain commands, grouped by what the caller does next. The server
 * maps them to Connect codes in exactly one place (server/src/rpc/errors.ts).
 * - invalid: fix the input (invalid_argument)
 * - not_found: the record does not exist in this tenant (not_found)
 * - precondition: the state forbids it now (failed_precondition)
 */
import { quote } from "./quote.ts";

export type DomainErrorCode = "invalid" | "not_found" | "precondition";

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

export const invalid = (field: string, message: string): DomainError =>
  new DomainError("invalid", message, field);
/** The id is quoted as every echoed input is (quote.ts): at most a short prefix. */
export const notFound = (entity: string, id: string): DomainError =>
  new DomainError("not_found", `${entity} ${quote(id)} not found`);
