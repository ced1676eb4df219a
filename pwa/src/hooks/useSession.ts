import { Code, ConnectError } from "@connectrpc/connect";
import { AuthMode, Role } from "@hivekeep/proto";
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { authClient } from "../api.ts";
import {
  cachedIdentity,
  cacheIdentity,
  clearSessionToken,
  type Identity,
  sessionToken,
  setSessionToken,
  subscribeSessionToken,
} from "../session.ts";
import { useOnlineStatus } from "./useOnlineStatus.ts";

export type SessionState =
  /** Asking the server (WhoAmI) for the first time, with nothing remembered. */
  | { readonly status: "checking" }
  /** Hosted mode without a valid token: the sign-in screen. */
  | { readonly status: "signed-out" }
  /**
   * The app itself. identity is undefined when the server could not be asked
   * and nothing is remembered; verified is false until WhoAmI has answered.
   */
  | {
      readonly status: "ready";
      readonly identity: Identity | undefined;
      readonly verified: boolean;
    };

export interface Session {
  readonly state: SessionState;
  /** Keeps the token of a new session (Login, SignUp, StartDemo). */
  signIn(token: string): void;
  /** Ends the session on the server (when reachable) and forgets the token. */
  signOut(): Promise<void>;
}

function initialState(): SessionState {
  const known = cachedIdentity();
  if (known === undefined) return { status: "checking" };
  if (!known.loginMode) return { status: "ready", identity: known, verified: false };
  if (sessionToken() === undefined) return { status: "signed-out" };
  return { status: "ready", identity: known, verified: false };
}

function sameIdentity(a: Identity | undefined, b: Identity | undefined): boolean {
  return (
    a?.loginMode === b?.loginMode &&
    a?.email === b?.email &&
    a?.organization === b?.organization &&
    a?.demo === b?.demo &&
    a?.owner === b?.owner
  );
}

/**
 * Who is using the app: single-user mode (no sign-in), signed out, or signed
 * in to an organization. Asks WhoAmI on start and whenever the token changes
 * (sign-in, sign-out, a call answered `unauthenticated`, another tab).
 */
export function useSession(): Session {
  const token = useSyncExternalStore(subscribeSessionToken, sessionToken, () => undefined);
  const online = useOnlineStatus();
  const [state, setState] = useState<SessionState>(initialState);
  const [attempt, setAttempt] = useState(0);

  const update = useCallback((next: SessionState) => {
    setState((prev) => {
      if (prev.status !== next.status) return next;
      if (prev.status !== "ready" || next.status !== "ready") return prev;
      return prev.verified === next.verified && sameIdentity(prev.identity, next.identity)
        ? prev
        : next;
    });
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt asks again.
  useEffect(() => {
    let live = true;
    const known = cachedIdentity();
    // Signed out of a server known to ask for sign-in: no need to wait for WhoAmI.
    if (token === undefined && known?.loginMode) update({ status: "signed-out" });
    authClient.whoAmI({}).then(
      (res) => {
        if (!live) return;
        const identity: Identity = {
          loginMode: res.authMode === AuthMode.LOGIN,
          email: res.user?.email ?? "",
          organization: res.organization?.name ?? "",
          demo: res.demo,
          owner: res.role === Role.OWNER,
        };
        cacheIdentity(identity);
        update({ status: "ready", identity, verified: true });
      },
      (err: unknown) => {
        if (!live) return;
        if (ConnectError.from(err).code === Code.Unauthenticated) {
          clearSessionToken();
          update({ status: "signed-out" });
          return;
        }
        // Offline or unreachable: go on with what is remembered; asked again once online.
        if (token === undefined && known?.loginMode) {
          update({ status: "signed-out" });
        } else {
          update({ status: "ready", identity: known, verified: false });
        }
      },
    );
    return () => {
      live = false;
    };
  }, [token, attempt, update]);

  // Back online with an unconfirmed session: ask again.
  const unverified = state.status === "ready" && !state.verified;
  const wasOnline = useRef(online);
  useEffect(() => {
    if (online && !wasOnline.current && unverified) setAttempt((n) => n + 1);
    wasOnline.current = online;
  }, [online, unverified]);

  const signIn = useCallback((newToken: string) => setSessionToken(newToken), []);

  const signOut = useCallback(async () => {
    try {
      await authClient.logout({});
    } catch {
      // Offline or already ended: forgetting the token signs out this device anyway.
    }
    clearSessionToken();
  }, []);

  return { state, signIn, signOut };
}
