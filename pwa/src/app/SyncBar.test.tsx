/**
 * The sync bar says offline so it cannot be missed (its own colour, the work kept on the device,
 * the changes waiting), says "back online" for a moment after, and shows a long pull's progress.
 * The client's sync status is a fake the test sets; the rest is a real test client.
 */
import type { HivekeepClient, SyncStatus } from "@hivekeep/client-core";
import { act, render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { openTestClient, TestSession } from "../testing/render-screen.tsx";
import { SyncBar } from "./SyncBar.tsx";

/** A client whose sync status the test sets (`set`), everything else real. */
async function withStatus(initial: Partial<SyncStatus>) {
  const client = await openTestClient();
  let status: SyncStatus = { ...client.sync.status, lastSyncedAt: undefined, ...initial };
  const listeners = new Set<(s: SyncStatus) => void>();
  const fake: HivekeepClient = {
    ...client,
    sync: {
      ...client.sync,
      get status() {
        return status;
      },
      subscribe(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
  };
  const set = (patch: Partial<SyncStatus>) =>
    act(() => {
      status = { ...status, ...patch };
      for (const l of listeners) l(status);
    });
  render(
    <TestSession client={fake}>
      <SyncBar />
    </TestSession>,
  );
  return { set, bar: () => screen.getByRole("status") };
}

describe("SyncBar", () => {
  it("is a band of its own colour offline, saying the work is kept here and what waits", async () => {
    const { bar, set } = await withStatus({ online: true, pending: 0 });
    expect(bar().className).not.toMatch(/syncbar--offline|syncbar--back/);
    set({ online: false, pending: 3 });
    expect(bar().className).toMatch(/syncbar--offline/);
    expect(bar().textContent).toContain("Offline — saved on this device");
    expect(bar().textContent).toContain("3 changes waiting");
  });

  it("says it is back online, with what it sends, then the normal state", async () => {
    const { bar, set } = await withStatus({ online: false, pending: 2 });
    set({ online: true, syncing: true });
    expect(bar().className).toMatch(/syncbar--back/);
    expect(bar().textContent).toContain("Back online — sending 2 changes");
    set({ pending: 0, syncing: false });
    expect(bar().textContent).toContain("Back online — all changes synced");
  });

  it("shows how far a long pull has come, and how much is left when the server says", async () => {
    const { bar, set } = await withStatus({ online: true, syncing: true });
    set({ pulling: { changes: 5000, left: 12_500 } });
    expect(bar().textContent).toContain("Syncing: 5,000 changes received, about 12,500 to go");
    expect(bar().textContent).not.toContain("Synced");
    set({ pulling: { changes: 10_000, left: undefined } });
    expect(bar().textContent).toContain("Syncing: 10,000 changes received");
    set({ pulling: undefined, syncing: false });
    expect(bar().textContent).not.toContain("received");
    expect(bar().textContent).toContain("Not synced yet");
  });

  it("says in two words that all is synced and when; what waits, with when it last synced", async () => {
    const { bar, set } = await withStatus({ online: true, pending: 0 });
    expect(bar().textContent).toBe("OnlineNot synced yet");
    set({ lastSyncedAt: new Date() });
    expect(bar().textContent).toBe("OnlineSynced now");
    set({ lastSyncedAt: new Date(Date.now() - 5 * 60_000), pending: 2 });
    expect(bar().textContent).toContain("2 changes waiting");
    expect(bar().textContent).toContain("Last synced: 5 min. ago");
    expect(bar().textContent).not.toContain("Synced");
  });
});
