/**
 * The session token of hosted mode (HIVEKEEP_AUTH=login), kept in localStorage so a reload or a
 * new tab stays signed in, and who it belongs to (as WhoAmI last said), so the app opens offline.
 * Listeners hear every change, from this tab or (through the `storage` event) from another one.
 *
 * A token reaches the replica's sync (`sessionToken()`) only once this tab has seen WhoAmI name
 * the account it belongs to (`adoptSessionToken`): when the stored token changes (a sign-in or an
 * organization switch here or in another tab), the replica still open keeps no token until the
 * app has checked whose it is, so its queued changes are never pushed into another account.
 */

const tokenKey = "hivekeep.sessionToken";
const identityKey = "hivekeep.identity";
const lastEmailKey = "hivekeep.lastEmail";
const endedKey = "hivekeep.sessionEnded";

export interface OrganizationRef {
  readonly id: string;
  readonly name: string;
}

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
  /** Ids of the account ("" when not known yet). */
  readonly userId: string;
  readonly organizationId: string;
  /** Every organization the user may switch to (the current one among them). */
  readonly organizations: readonly OrganizationRef[];
}

/** Nobody signed in to a server that asks for sign-in. */
export const signedOutIdentity: Identity = {
  loginMode: true,
  email: "",
  organization: "",
  demo: false,
  owner: false,
  userId: "",
  organizationId: "",
  organizations: [],
};

const listeners = new Set<() => void>();
// When localStorage cannot be used (some private modes), values live as long as the page.
const fallback = new Map<string, string>();

function read(key: string): string | undefined {
  try {
    return window.localStorage.getItem(key) ?? undefined;
  } catch {
    return fallback.get(key);
  }
}

function write(key: string, value: string | undefined): void {
  if (value === undefined) fallback.delete(key);
  else fallback.set(key, value);
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

/** The token as stored (for the account calls of api.ts and for noticing a new sign-in). */
export function storedSessionToken(): string | undefined {
  return read(tokenKey) || undefined;
}

interface CachedIdentity extends Identity {
  /** The token WhoAmI answered this identity for. */
  readonly token?: string;
}

function parseIdentity(raw: string | undefined): CachedIdentity | undefined {
  if (raw === undefined) return undefined;
  try {
    const v = JSON.parse(raw) as Partial<CachedIdentity>;
    const organizations = Array.isArray(v.organizations)
      ? v.organizations
          .filter((o): o is OrganizationRef => typeof o?.id === "string")
          .map((o) => ({ id: o.id, name: String(o.name ?? "") }))
      : [];
    return {
      loginMode: v.loginMode === true,
      email: String(v.email ?? ""),
      organization: String(v.organization ?? ""),
      demo: v.demo === true,
      owner: v.owner === true,
      userId: String(v.userId ?? ""),
      organizationId: String(v.organizationId ?? ""),
      organizations,
      ...(typeof v.token === "string" ? { token: v.token } : {}),
    };
  } catch {
    return undefined;
  }
}

// This tab's checked token: at start, the stored one if WhoAmI last answered for it.
let adopted: string | undefined = (() => {
  const stored = storedSessionToken();
  return stored !== undefined && parseIdentity(read(identityKey))?.token === stored
    ? stored
    : undefined;
})();

/**
 * The token for the replica's sync: the stored one once this tab has checked whose it is,
 * undefined meanwhile (sync then pauses; it resumes with the token once checked).
 */
export function sessionToken(): string | undefined {
  const stored = storedSessionToken();
  return stored !== undefined && stored === adopted ? stored : undefined;
}

const adoptListeners = new Set<() => void>();

/** The token was checked (WhoAmI) for the account now shown: the replica may use it. */
export function adoptSessionToken(token: string | undefined): void {
  if (token === adopted) return;
  adopted = token;
  for (const listener of adoptListeners) listener();
}

/** Calls onAdopt when this tab starts using a newly checked token (sync may resume). */
export function subscribeAdoptedToken(onAdopt: () => void): () => void {
  adoptListeners.add(onAdopt);
  return () => adoptListeners.delete(onAdopt);
}

export function setSessionToken(token: string): void {
  write(endedKey, undefined);
  write(tokenKey, token);
  notify();
}

/**
 * Forgets the token and who it belonged to, but remembers that this server asks for sign-in,
 * so the sign-in screen shows even when opened offline (and the last email, to fill it in).
 * `loggedOut`: the person logged out, rather than the session ending by itself.
 */
export function clearSessionToken(options?: { loggedOut?: boolean }): void {
  const had = storedSessionToken() !== undefined;
  if (had) write(endedKey, options?.loggedOut ? undefined : "1");
  write(tokenKey, undefined);
  adopted = undefined;
  cacheIdentity(signedOutIdentity);
  if (had) notify();
}

/**
 * Calls onChange whenever the stored `key` changes: in this tab (one of `here`, which the writer
 * calls) or in another (a storage event); returns the unsubscribe function.
 */
function subscribeStored(key: string, here: Set<() => void>, onChange: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === key || event.key === null) onChange();
  };
  here.add(onChange);
  window.addEventListener("storage", onStorage);
  return () => {
    here.delete(onChange);
    window.removeEventListener("storage", onStorage);
  };
}

/** Calls onChange whenever the token changes; returns the unsubscribe function. */
export function subscribeSessionToken(onChange: () => void): () => void {
  return subscribeStored(tokenKey, listeners, onChange);
}

let identityRaw: string | undefined;
let identityParsed: CachedIdentity | undefined;

function cached(): CachedIdentity | undefined {
  const raw = read(identityKey);
  if (raw !== identityRaw) {
    identityRaw = raw;
    identityParsed = parseIdentity(raw);
  }
  return identityParsed;
}

/** Who WhoAmI last named on this device (the same object until it changes). */
export function cachedIdentity(): Identity | undefined {
  return cached();
}

/** Whether the cached identity was answered for this token. */
export function identityVerifiedFor(token: string | undefined): boolean {
  return token !== undefined && cached()?.token === token;
}

const identityListeners = new Set<() => void>();

export function cacheIdentity(identity: Identity, token?: string): void {
  const { loginMode, email, organization, demo, owner, userId, organizationId, organizations } =
    identity;
  write(
    identityKey,
    JSON.stringify({
      loginMode,
      email,
      organization,
      demo,
      owner,
      userId,
      organizationId,
      organizations,
      ...(token !== undefined ? { token } : {}),
    }),
  );
  if (email !== "" && !demo) write(lastEmailKey, email);
  for (const listener of identityListeners) listener();
}

/** Calls onChange whenever the cached identity changes (here or in another tab). */
export function subscribeIdentity(onChange: () => void): () => void {
  return subscribeStored(identityKey, identityListeners, onChange);
}

/** The email last signed in with on this device (to fill in the sign-in form). */
export function lastEmail(): string {
  return read(lastEmailKey) ?? "";
}

/** The last session on this device ended by itself (expired, revoked), not by logging out. */
export function sessionEndedHere(): boolean {
  return read(endedKey) === "1";
}
