import { Code, ConnectError, createContextKey, type HandlerContext } from "@connectrpc/connect";

/** Who is calling: resolved once per request by the auth interceptor. */
export interface Caller {
  readonly organizationId: string;
  readonly userId: string;
  readonly role: "owner" | "member";
  /** Read-only demo session. */
  readonly demo: boolean;
}

export const callerKey = createContextKey<Caller | undefined>(undefined, {
  description: "the authenticated caller",
});

export function callerOf(ctx: HandlerContext): Caller {
  const caller = ctx.values.get(callerKey);
  if (caller === undefined) throw new ConnectError("not signed in", Code.Unauthenticated);
  return caller;
}
