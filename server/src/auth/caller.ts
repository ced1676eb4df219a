/**
 * Who is calling, as the auth rules and the stores see it. The RPC layer puts it in each call's
 * context (rpc/context.ts); the in-process callers (seeding, tests) build one directly.
 */

export type Role = "owner" | "member";

/** What the caller presented: nothing (single-user mode), a session token or an API key. */
export type Credential =
  | { readonly kind: "local" }
  | { readonly kind: "session" | "apiKey"; readonly tokenHash: string };

/** Who is calling: resolved once per request by the auth interceptor. */
export interface Caller {
  readonly organizationId: string;
  readonly userId: string;
  readonly role: Role;
  /** Read-only demo session. */
  readonly demo: boolean;
  /** Absent for callers made in process (seeding, tests): treated as local. */
  readonly credential?: Credential;
  /**
   * How long the credential had left when it was looked up, in ms by the database's clock (so a
   * server clock that differs does not matter): a session's end. Absent when it does not expire
   * (API keys, local callers). A long stream ends then (rpc/subscribe.ts).
   */
  readonly expiresInMs?: number;
}
