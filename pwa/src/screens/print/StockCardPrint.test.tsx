/**
 * A hive's printable stock card (issue 26): the hive, its apiary and the reigning queen at the
 * top, one row per visit (oldest first) with one column per stock-card field; linked from the
 * hive page's stock card.
 */

import { MarkingColor, Stores, Temperament } from "@hivekeep/proto";
import { within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { at, daysAgo } from "../../testing/clock.ts";
import { openTestClient, renderAt } from "../../testing/render-screen.tsx";
import { seed } from "../../testing/seed.ts";

describe("the stock card", () => {
  it("shows the hive, apiary and queen, and one row per visit with the stock-card fields", async () => {
    const client = await openTestClient();
    const home = await seed.apiary(client, { name: "Home meadow" });
    const hive = await seed.hive(client, { apiaryId: home.id, name: "Hive 1" });
    await seed.queen(client, {
      hiveId: hive.id,
      year: 2025,
      marking: MarkingColor.GREEN,
      introducedAt: at(daysAgo(300)),
    });
    await seed.inspection(client, {
      hiveId: hive.id,
      date: at(daysAgo(20)),
      frames: 10,
      broodFrames: 6,
      queenSeen: true,
      stores: Stores.GOOD,
      temperament: Temperament.GENTLE,
      calmness: 4,
      varroa: "3 mites/day",
      note: "Strong colony",
    });
    await seed.inspection(client, { hiveId: hive.id, date: at(daysAgo(5)), queenCells: 2 });

    const page = await renderAt(`/hives/${hive.id}`, { client });
    await page.user.click(await page.findByRole("link", { name: "Print stock card" }));
    expect(page.location()).toBe(`/hives/${hive.id}/stock-card`);
    page.unmount();

    const app = await renderAt(`/hives/${hive.id}/stock-card`, { client });
    await app.findByRole("heading", { level: 1, name: "Stock card · Hive 1" });
    expect(app.getByText("Home meadow")).toBeTruthy();
    expect(app.getByTestId("stock-card-queen").textContent).toBe("2025 · Green");
    const table = within(app.getByRole("table"));
    expect(table.getAllByRole("columnheader").map((h) => h.textContent)).toEqual([
      "Date",
      "Frames",
      "Brood frames",
      "Queen",
      "Eggs",
      "Capped brood",
      "Queen cells",
      "Stores",
      "Temperament",
      "Calmness",
      "Varroa",
      "Super added",
      "Weight",
      "Note",
    ]);
    const [first, second] = table
      .getAllByRole("row")
      .slice(1)
      .map((r) => [...r.querySelectorAll("td")].map((c) => c.textContent));
    expect(first).toEqual([
      "May 26, 2026",
      "10",
      "6",
      "yes",
      "–",
      "–",
      "",
      "Good",
      "Gentle",
      "4",
      "3 mites/day",
      "",
      "",
      "Strong colony",
    ]);
    expect(second?.[0]).toBe("Jun 10, 2026");
    expect(second?.[6]).toBe("2");
  });
});
