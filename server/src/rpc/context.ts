/** The Connect context of a call: who is calling (auth/caller.ts) and from where. */
import { Code, ConnectError, createContextKey, type HandlerContext } from "@connectrpc/connect";
import type { Caller } from "../auth/caller.ts";

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
