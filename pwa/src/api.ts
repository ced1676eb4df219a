/**
 * Connect clients for the server that served this page. A placeholder: the
 * offline-first PWA will read from the local replica instead (DESIGN.md §6).
 */
import { Code, ConnectError, createClient, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { ApiaryService, AuthService, SyncService } from "@hivekeep/proto";
import { clearSessionToken, sessionToken } from "./session.ts";

/**
 * Sends the session token (hosted mode) with every call, streams included.
 * A call answered `unauthenticated` with the current token means the session
 * expired or was revoked: the token is dropped and the app shows sign-in.
 */
const sessionInterceptor: Interceptor = (next) => async (req) => {
  const token = sessionToken();
  if (token !== undefined) req.header.set("Authorization", `Bearer ${token}`);
  const check = (err: unknown) => {
    if (
      token !== undefined &&
      ConnectError.from(err).code === Code.Unauthenticated &&
      sessionToken() === token
    ) {
      clearSessionToken();
    }
  };
  try {
    const res = await next(req);
    if (!res.stream) return res;
    // A stream's error arrives while reading it, not with the response.
    const messages = res.message;
    return {
      ...res,
      message: (async function* () {
        try {
          yield* messages;
        } catch (err) {
          check(err);
          throw err;
        }
      })(),
    };
  } catch (err) {
    check(err);
    throw err;
  }
};

const transport = createConnectTransport({
  baseUrl: window.location.origin,
  interceptors: [sessionInterceptor],
});

export const apiaryClient = createClient(ApiaryService, transport);
export const authClient = createClient(AuthService, transport);
export const syncClient = createClient(SyncService, transport);

/** A sentence for the user saying what went wrong with a call. */
export function describeError(err: unknown, action: string): string {
  if (!navigator.onLine) {
    return `Could not ${action}: you are offline. Try again when you have a connection.`;
  }
  const e = ConnectError.from(err);
  if (e.code === Code.Unknown || e.code === Code.Unavailable) {
    return `Could not ${action}: the server cannot be reached (${e.rawMessage}).`;
  }
  return `Could not ${action}: ${e.rawMessage}`;
}
