/**
 * The app's screens in a component test: a real device client (`createHivekeepClient` on its
 * own fake-indexeddb; no server, sync never started), the app's session provider and routes,
 * and wouter's memory location, so a test renders the URL it names and reads what a user sees.
 *
 *   const client = await openTestClient();
 *   const { apiary } = await client.apiaries.createApiary({ name: "Home" });
 *   const app = await renderAt(`/apiaries/${apiary?.id}`, { client });
 *   await app.findByRole("heading", { level: 1, name: "Home" });
 *   await app.user.click(app.getByRole("link", { name: "Add a hive here" }));
 *   expect(app.location()).toBe(`/hives/new?apiary=${apiary?.id}`);
 *
 * Records are seeded through the client's own services, so the replica holds what the app would
 * have written; what a screen saves is read back through the same services. The component
 * project's setup (`setup.ts`) fixes "now" (`testNow` in `clock.ts`) and unmounts after each
 * test; the client is closed when its test ends.
 */
import { createHivekeepClient, type HivekeepClient } from "@hivekeep/client-core";
import { type RenderResult, render } from "@testing-library/react";
import userEvent, { type UserEvent } from "@testing-library/user-event";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import type { ReactNode } from "react";
import { onTestFinished } from "vitest";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { AppRoutes } from "../app/AppRoutes.tsx";
import { type AppSession, AppSessionProvider } from "../app/client.tsx";

/** Any network use is a bug of the test (sync is never started): it fails loudly. */
const noNetwork: typeof fetch = async (input) => {
  throw new Error(`a component test must not use the network (fetch ${String(input)})`);
};

let opened = 0;

/**
 * A device client on a fresh IndexedDB of its own, closed when the test ends. Dexie's live
 * queries in Node emit only if `Dexie.dependencies` points at the IndexedDB they run on:
 * `createHivekeepClient` sets it to the one passed here.
 */
export async function openTestClient(): Promise<HivekeepClient> {
  opened += 1;
  const client = await createHivekeepClient({
    baseUrl: "http://hivekeep.component.test",
    dbName: `component-${process.pid}-${opened}`,
    indexedDB: new IDBFactory(),
    IDBKeyRange,
    fetch: noNetwork,
    account: { organizationId: "00000000-0000-4000-8000-000000000001", userId: "user-1" },
    pullInWorker: false,
  });
  onTestFinished(() => client.close());
  return client;
}

export interface RenderAtOptions {
  /** The replica to show (seeded by the test); a fresh, empty one if absent. */
  readonly client?: HivekeepClient;
  /** A read-only (demo) session: the screens hide every write. */
  readonly readOnly?: boolean;
}

export interface RenderedApp extends RenderResult {
  readonly client: HivekeepClient;
  /** Testing Library's user, for clicks and typing as a person does them. */
  readonly user: UserEvent;
  /** The URL the app is at now (path and query), after any navigation. */
  location(): string;
  /** Goes to another URL, as a link would. */
  navigate(path: string): void;
}

/** The app's session around a client, as the app gives it to its screens (single-user mode). */
export function TestSession(props: {
  readonly client: HivekeepClient;
  readonly readOnly?: boolean;
  readonly children: ReactNode;
}) {
  const session: AppSession = {
    client: props.client,
    readOnly: props.readOnly === true,
    loginMode: false,
    email: "",
    organization: "",
    owner: true,
    signOut: async () => {},
  };
  return <AppSessionProvider value={session}>{props.children}</AppSessionProvider>;
}

/** Renders the app's routes at `path` (e.g. `/hives/<id>`) over the client's replica. */
export async function renderAt(path: string, options: RenderAtOptions = {}): Promise<RenderedApp> {
  const client = options.client ?? (await openTestClient());
  const memory = memoryLocation({ path, record: true });
  const user = userEvent.setup();
  const view = render(
    <TestSession client={client} readOnly={options.readOnly === true}>
      <Router hook={memory.hook} searchHook={memory.searchHook}>
        <AppRoutes />
      </Router>
    </TestSession>,
  );
  return {
    ...view,
    client,
    user,
    location: () => memory.history.at(-1) ?? path,
    navigate: (to) => memory.navigate(to),
  };
}
