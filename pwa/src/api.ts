/**
 * The remote AuthService of the server that served this page: sign-in and the account calls
 * (API keys, members, invitations, switching organization). These need the network; everything
 * else in the app reads and writes the device's replica (app/client.tsx).
 */
import {
  type CallOptions,
  Code,
  ConnectError,
  createClient,
  type Interceptor,
} from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { answerJsonOptions } from "@hivekeep/client-core/protocol";
import { AuthService } from "@hivekeep/proto";
import { clearSessionToken, storedSessionToken } from "./session.ts";

const signInMethods = new Set(["SignUp", "Login", "StartDemo"]);

/**
 * Sends the session token (hosted mode) with every call, unless the call names its own
 * (`withToken`). A call answered `unauthenticated` with the token stored now means the session
 * expired or was revoked: the token is dropped and the app shows sign-in.
 */
const sessionInterceptor: Interceptor = (next) => async (req) => {
  // Signing in needs no token, and its `unauthenticated` (a wrong password) ends no session.
  if (signInMethods.has(req.method.name)) return next(req);
  const given = req.header.get("Authorization");
  let token: string | undefined;
  if (given === null) {
    token = storedSessionToken();
    if (token !== undefined) req.header.set("Authorization", `Bearer ${token}`);
  } else if (given === "") {
    req.header.delete("Authorization");
  } else {
    token = given.replace(/^Bearer /, "");
  }
  try {
    return await next(req);
  } catch (err) {
    if (
      token !== undefined &&
      ConnectError.from(err).code === Code.Unauthenticated &&
      storedSessionToken() === token
    ) {
      clearSessionToken();
    }
    throw err;
  }
};

const transport = createConnectTransport({
  baseUrl: window.location.origin,
  interceptors: [sessionInterceptor],
  jsonOptions: answerJsonOptions,
});

export const authClient = createClient(AuthService, transport);

/** Call options that send this token (or, for undefined, none) instead of the stored one. */
export function withToken(token: string | undefined): CallOptions {
  return {
    headers: token === undefined ? { Authorization: "" } : { Authorization: `Bearer ${token}` },
  };
}
