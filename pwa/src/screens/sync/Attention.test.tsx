/**
 * Needs attention with notices of overridden work (issue 25): each says which record, what the
 * user wrote and what was kept, links to the record, and goes when dismissed.
 */
import type { SyncNotice } from "@hivekeep/client-core";
import { waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { openTestClient, renderAt } from "../../testing/render-screen.tsx";

const notices: SyncNotice[] = [
  {
    key: "hive/h1",
    kind: "overwritten",
    record: { entity: "hive", id: "h1", label: "Linden" },
    mine: { note: "calm", updated_at: "2026-05-01T10:00:00.000Z" },
    won: { note: "swarmed" },
    winningHlc: "001777700000000:00000:other",
    wonAt: "2026-05-01T11:00:00.000Z",
    noticedAt: "2026-05-01T12:00:00.000Z",
  },
  {
    key: "inspection/i1",
    kind: "orphaned",
    record: {
      entity: "inspection",
      id: "i1",
      label: "",
      date: "2026-05-01T09:00:00.000Z",
      hiveId: "h2",
    },
    mine: { note: "queen seen", frames: 0, queen_seen: false, weather: null, hive_id: "h2" },
    won: {},
    wonAt: "2026-05-01T11:30:00.000Z",
    cause: { entity: "hive", id: "h2", label: "Heath 3" },
    noticedAt: "2026-05-01T11:59:00.000Z",
  },
];

describe("needs attention: notices", () => {
  it("lists each notice with what the user wrote and what was kept, and dismisses it", async () => {
    const client = await openTestClient();
    await client.db.notices.bulkPut(notices);
    const app = await renderAt("/sync", { client });
    await app.findByRole("heading", { name: "Overridden by sync" });
    expect(app.getByText(/Hive “Linden”/)).toBeTruthy();
    expect(app.getByText(/You wrote: “calm” · Kept: “swarmed”/)).toBeTruthy();
    expect(app.getByText("Note", { selector: "dt" })).toBeTruthy();
    expect(app.getByText(/Hive “Heath 3” was deleted on another device/)).toBeTruthy();
    expect(app.getByText("You wrote: Note “queen seen”")).toBeTruthy();
    const items = app.container.querySelectorAll("[data-notice]");
    expect(items).toHaveLength(2);
    const open = app.getAllByRole("link", { name: "Open the record" });
    expect(open.map((a) => a.getAttribute("href"))).toEqual(["/hives/h1", "/inspections/i1"]);

    await app.user.click(app.getAllByRole("button", { name: "Dismiss" })[0] as HTMLElement);
    await waitFor(() => expect(app.container.querySelectorAll("[data-notice]")).toHaveLength(1));
    expect((await client.notices.list()).map((n) => n.key)).toEqual(["inspection/i1"]);
  });
});
