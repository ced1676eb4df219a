import { Code, ConnectError, createContextKey, type HandlerContext } from "@connectrpc/connect";

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
}

/** The network address of the client (for sign-in throttling). */
export const clientAddressKey = createContextKey<string>("unknown", {
  description: "the client's network address",
});

export const callerKey = createContextKey<Caller | undefined>(undefined, {
  description: "the authenticated caller",
});

export function callerOf(ctx: HandlerContext): Caller {
  const caller = ctx.values.get(callerKey);
  if (caller === undefined) throw new ConnectError("not signed in", Code.Unauthenticated);
  return caller;
}
