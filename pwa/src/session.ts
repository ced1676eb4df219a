/**
 * The session token of hosted mode (HIVEKEEP_AUTH=login), kept in localStorage
 * so a reload or a new tab stays signed in. Listeners hear every change, from
 * this tab or (through the `storage` event) from another one.
 */

const tokenKey = "hivekeep.sessionToken";
const identityKey = "hivekeep.identity";

/** Who is signed in, as WhoAmI last said; kept so the app opens offline. */
export interface Identity {
  /** The server asks for sign-in (AUTH_MODE_LOGIN); false in single-user mode. */
  readonly loginMode: boolean;
  readonly email: string;
  readonly organization: string;
  /** A read-only demo session. */
  readonly demo: boolean;
  /** Owner of the organization (members and invitations). */
  readonly owner: boolean;
}

const listeners = new Set<() => void>();
// When localStorage cannot be used (some private modes), the token lives as long as the page.
let fallback: string | undefined;

function read(key: string): string | undefined {
  try {
    return window.localStorage.getItem(key) ?? undefined;
  } catch {
    return key === tokenKey ? fallback : undefined;
  }
}

function write(key: string, value: string | undefined): void {
  if (key === tokenKey) fallback = value;
  try {
    if (value === undefined) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Storage unavailable or full: the in-memory fallback above still works.
  }
}

function notify(): void {
  for (const listener of listeners) listener();
}

export function sessionToken(): string | undefined {
  return read(tokenKey) || undefined;
}

export function setSessionToken(token: string): void {
  write(tokenKey, token);
  notify();
}

/**
 * Forgets the token and who it belonged to, but remembers that this server
 * asks for sign-in, so the sign-in screen shows even when opened offline.
 */
export function clearSessionToken(): void {
  const had = sessionToken() !== undefined;
  write(tokenKey, undefined);
  cacheIdentity({ loginMode: true, email: "", organization: "", demo: false, owner: false });
  if (had) notify();
}

/** Calls onChange whenever the token changes; returns the unsubscribe function. */
export function subscribeSessionToken(onChange: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === tokenKey || event.key === null) onChange();
  };
  listeners.add(onChange);
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener("storage", onStorage);
  };
}

export function cachedIdentity(): Identity | undefined {
  const raw = read(identityKey);
  if (raw === undefined) return undefined;
  try {
    const v = JSON.parse(raw) as Partial<Identity>;
    return {
      loginMode: v.loginMode === true,
      email: String(v.email ?? ""),
      organization: String(v.organization ?? ""),
      demo: v.demo === true,
      owner: v.owner === true,
    };
  } catch {
    return undefined;
  }
}

export function cacheIdentity(identity: Identity): void {
  write(identityKey, JSON.stringify(identity));
}
