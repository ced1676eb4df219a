/**
 * The device replica for the signed-in account, and the hooks every screen reads it with.
 * Screens read only from the replica (`useLiveQuery`, through their area's `queries.ts`): they
 * never wait on the network and work the same with no signal. Writes go through `useClient()`'s services, which write the replica and
 * queue the change for the sync engine.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { createHivekeepClient, type HivekeepClient, type SyncStatus } from "@hivekeep/client-core";
import {
  createContext,
  type DependencyList,
  type ReactNode,
  useContext,
  useEffect,
  useLayoutEffect,
  useState,
  useSyncExternalStore,
} from "react";
import { readPhotoKeepDays } from "../hooks/usePhotoKeepDays.ts";

export interface AppSession {
  readonly client: HivekeepClient;
  /** A read-only (demo) session: screens hide every write and say why. */
  readonly readOnly: boolean;
  /** The server asks for sign-in (hosted mode). */
  readonly loginMode: boolean;
  readonly email: string;
  readonly organization: string;
  /** The signed-in user owns the organization (members, invitations). */
  readonly owner: boolean;
  signOut(): Promise<void>;
}

const SessionContext = createContext<AppSession | undefined>(undefined);

export function AppSessionProvider(props: { value: AppSession; children: ReactNode }) {
  return <SessionContext.Provider value={props.value}>{props.children}</SessionContext.Provider>;
}

export function useAppSession(): AppSession {
  const session = useContext(SessionContext);
  if (session === undefined) throw new Error("useAppSession outside AppSessionProvider");
  return session;
}

/** The device's services (local, offline): `useClient().hives.createHive({...})`. */
export function useClient(): HivekeepClient {
  return useAppSession().client;
}

/**
 * The signed-in device's client, or undefined outside a session (sign-in): for what works
 * with and without one, such as "now" (app/now.tsx).
 */
export function useOptionalClient(): HivekeepClient | undefined {
  return useContext(SessionContext)?.client;
}

export function useReadOnly(): boolean {
  return useAppSession().readOnly;
}

const sameKey = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((x, i) => Object.is(x, b[i]));

/**
 * What a screen shows for a live query, as one status:
 * - `loading` until the first answer for these deps (or a remembered one, see `keep`);
 * - `ready` with the answer;
 * - `not-found` when the query answered `undefined` or a service said `not_found` (a deep link to
 *   a record deleted meanwhile);
 * - `failed` for any other failure: the replica could not be read. It is never shown as "Not
 *   found" (`<LiveView>` in ui/page.tsx says what failed).
 */
export type Live<T> =
  | { readonly status: "loading" }
  | { readonly status: "ready"; readonly value: T }
  | { readonly status: "not-found" }
  | { readonly status: "failed"; readonly error: unknown };

/** A query's failure as a status: `not_found` from a service is an answer, the rest a failure. */
export function liveFailure(error: unknown): Live<never> {
  return ConnectError.from(error).code === Code.NotFound
    ? { status: "not-found" }
    : { status: "failed", error };
}

/**
 * The record a lookup names, or undefined when it is gone (deleted meanwhile: `not_found`, as
 * `liveFailure` tells it); any other failure (the replica could not be read) stays a failure.
 */
export function orMissing<T>(p: Promise<T>): Promise<T | undefined> {
  return p.catch((error: unknown) => {
    if (liveFailure(error).status === "not-found") return undefined;
    throw error;
  });
}

/**
 * The last answers of queries that asked to be kept, per replica and name: coming back to a
 * screen shows its last answer at once while the query runs again (the overview's GetDashboard
 * takes seconds on a big replica), so Loading shows only the first time after the app opens.
 * Written when an answer arrives, never during a render.
 */
const kept = new WeakMap<HivekeepClient, Map<string, unknown>>();

/**
 * A live query as one status (`Live<T>`): the query runs again whenever the replica changes,
 * and a failure is an answer, not a throw. `keep` names a query whose last answer is shown at
 * once the next time (see `kept`). For new deps it is loading (never the last deps' answer) until
 * their own answer. One subscription per deps, so the query runs once per change (dexie-react-
 * hooks' useObservable runs it twice on mount, which the dashboard of a big replica felt). Each
 * screen area names its queries in its `queries.ts`:
 *
 *   export const useHive = (id: string) =>
 *     useLiveQuery(async (c) => (await c.hives.getHive({ id })).hive, [id]);
 */
export function useLiveQuery<T>(
  query: (client: HivekeepClient) => Promise<T | undefined>,
  deps: DependencyList,
  options?: { readonly keep?: string },
): Live<T> {
  const client = useClient();
  const key = [client, ...deps];
  const name = options?.keep;
  const [state, setState] = useState<{ key: unknown[]; live: Live<T> } | undefined>(undefined);
  const subscribe = () => {
    const sub = client.live(query).subscribe({
      next: (value) => {
        if (name !== undefined && value !== undefined) {
          const answers = kept.get(client) ?? new Map<string, unknown>();
          kept.set(client, answers);
          answers.set(name, value);
        }
        setState({
          key,
          live: value === undefined ? { status: "not-found" } : { status: "ready", value },
        });
      },
      error: (error: unknown) => setState({ key, live: liveFailure(error) }),
    });
    return () => sub.unsubscribe();
  };
  // Subscribed in a layout effect: the query starts before the browser paints the loading state.
  // A passive effect would start it after that paint, a frame later on every screen opened and
  // every choice that asks anew (issue 29: a hive page's chart waited for two such frames).
  // biome-ignore lint/correctness/useExhaustiveDependencies: key holds the client and the caller's deps.
  useLayoutEffect(subscribe, key);
  if (state !== undefined && sameKey(state.key, key)) return state.live;
  const last = name === undefined ? undefined : kept.get(client)?.get(name);
  return last === undefined ? loading : { status: "ready", value: last as T };
}

const loading: Live<never> = { status: "loading" };

/** The sync engine's status, re-rendered on every change. */
export function useSyncStatus(): SyncStatus {
  const client = useClient();
  return useSyncExternalStore(
    (listener) => client.sync.subscribe(listener),
    () => client.sync.status,
  );
}

export type ClientState =
  | { readonly status: "opening" }
  | { readonly status: "open"; readonly client: HivekeepClient }
  | { readonly status: "failed"; readonly error: unknown; retry(): void };

/**
 * Opens the replica of the account a token belongs to (WhoAmI, or offline the last account
 * seen on this device), starts its sync, and closes it when the account changes or the app
 * unmounts. The replica stays on the device: signing in again to the same account reopens it
 * with every queued change.
 */
export function useReplica(options: {
  key: string;
  getToken: () => Promise<string | undefined>;
  readOnly: boolean;
}): ClientState {
  const [state, setState] = useState<ClientState>({ status: "opening" });
  const [attempt, setAttempt] = useState(0);
  const { key, getToken, readOnly } = options;
  // biome-ignore lint/correctness/useExhaustiveDependencies: key names the account; attempt retries.
  useEffect(() => {
    let live = true;
    let opened: HivekeepClient | undefined;
    setState({ status: "opening" });
    createHivekeepClient({
      baseUrl: window.location.origin,
      getToken,
      readOnly,
      photoKeepDays: readPhotoKeepDays,
    }).then(
      (client) => {
        if (!live) {
          void client.close();
          return;
        }
        opened = client;
        client.sync.start();
        setState({ status: "open", client });
      },
      (error: unknown) => {
        if (live) setState({ status: "failed", error, retry: () => setAttempt((n) => n + 1) });
      },
    );
    return () => {
      live = false;
      if (opened) void opened.close();
    };
  }, [key, attempt, readOnly]);
  return state;
}
