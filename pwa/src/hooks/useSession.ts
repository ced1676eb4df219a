import { Code, ConnectError } from "@connectrpc/connect";
import { AuthMode, Role, type WhoAmIResponse } from "@hivekeep/proto";
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { authClient, withToken } from "../api.ts";
import { useOnline } from "../app/useOnline.ts";
import {
  adoptSessionToken,
  cachedIdentity,
  cacheIdentity,
  clearSessionToken,
  type Identity,
  identityVerifiedFor,
  setSessionToken,
  storedSessionToken,
  subscribeIdentity,
  subscribeSessionToken,
} from "../session.ts";

export type SessionState =
  /** Asking the server (WhoAmI), with nothing usable remembered; or changing accounts. */
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
  /** Keeps the token of a new session (Login, SignUp, StartDemo, SwitchOrganization). */
  signIn(token: string): void;
  /** Ends the session on the server (when reachable) and forgets the token. */
  signOut(): Promise<void>;
}

/** WhoAmI's answer as the app keeps it. */
export function identityOf(res: WhoAmIResponse): Identity {
  const organization = { id: res.organization?.id ?? "", name: res.organization?.name ?? "" };
  return {
    loginMode: res.authMode === AuthMode.LOGIN,
    email: res.user?.email ?? "",
    organization: organization.name,
    demo: res.demo,
    owner: res.role === Role.OWNER,
    userId: res.user?.id ?? "",
    organizationId: organization.id,
    organizations:
      res.organizations.length > 0
        ? res.organizations.map((o) => ({ id: o.id, name: o.name }))
        : [organization],
  };
}

/** Which replica an identity opens: one per user and organization. */
export function accountKey(identity: Identity | undefined): string {
  if (identity === undefined) return "";
  return identity.userId !== "" && identity.organizationId !== ""
    ? `${identity.userId}\n${identity.organizationId}`
    : `${identity.email}\n${identity.organization}`;
}

function initialState(): SessionState {
  const known = cachedIdentity();
  if (known === undefined) return { status: "checking" };
  if (!known.loginMode) return { status: "ready", identity: known, verified: false };
  const token = storedSessionToken();
  if (token === undefined) return { status: "signed-out" };
  // A token nobody has checked yet (signed in, then closed before WhoAmI answered): ask first.
  if (!identityVerifiedFor(token)) return { status: "checking" };
  return { status: "ready", identity: known, verified: false };
}

function sameIdentity(a: Identity | undefined, b: Identity | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Who is using the app: single-user mode (no sign-in), signed out, or signed in to an
 * organization. Asks WhoAmI on start and whenever the token changes (sign-in, sign-out, a switch
 * of organization, a call answered `unauthenticated`, another tab).
 *
 * A token of another account than the one shown (another organization, another user) first
 * closes the open replica ("checking"), and only then reaches sync: no queued change of one
 * account is ever pushed with another's token.
 */
export function useSession(): Session {
  const token = useSyncExternalStore(subscribeSessionToken, storedSessionToken, () => undefined);
  const online = useOnline();
  const [state, setState] = useState<SessionState>(initialState);
  const [attempt, setAttempt] = useState(0);
  const shown = useRef(state);
  shown.current = state;
  // An account checked while another one's replica was open: adopted once that one has closed.
  const pending = useRef<{ identity: Identity; token: string | undefined } | undefined>(undefined);

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
    authClient.whoAmI({}, withToken(token)).then(
      (res) => {
        if (!live) return;
        const identity = identityOf(res);
        cacheIdentity(identity, token);
        const now = shown.current;
        if (now.status === "ready" && accountKey(now.identity) !== accountKey(identity)) {
          // Another account's replica is open: close it first (the effect below goes on).
          pending.current = { identity, token };
          setState({ status: "checking" });
          return;
        }
        adoptSessionToken(token);
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

  // The previous replica has closed (effects of removed components run before this one).
  useEffect(() => {
    const next = pending.current;
    if (state.status !== "checking" || next === undefined) return;
    pending.current = undefined;
    adoptSessionToken(next.token);
    setState({ status: "ready", identity: next.identity, verified: true });
  }, [state]);

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
    clearSessionToken({ loggedOut: true });
  }, []);

  return { state, signIn, signOut };
}

/** The identity WhoAmI last named on this device (organizations to switch to, ids). */
export function useIdentity(): Identity | undefined {
  return useSyncExternalStore(subscribeIdentity, cachedIdentity, () => undefined);
}

/**
 * Asks WhoAmI again and keeps the answer when it is still the account shown (its role, name and
 * organizations may have changed); needs the network.
 */
export async function refreshIdentity(): Promise<Identity | undefined> {
  const token = storedSessionToken();
  const identity = identityOf(await authClient.whoAmI({}, withToken(token)));
  if (accountKey(identity) !== accountKey(cachedIdentity())) return undefined;
  cacheIdentity(identity, token);
  return identity;
}
