/**
 * The winter weight alert: set in Settings (kept on this device), it warns on the hive page and
 * the overview in winter when a hive's latest weight is below it; unset, it never warns.
 */
import { within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readWinterWeight, writeWinterWeight } from "../../hooks/useWinterWeight.ts";
import { at, testNow } from "../../testing/clock.ts";
import { findSection } from "../../testing/queries.ts";
import { openTestClient, renderAt } from "../../testing/render-screen.tsx";
import { seed } from "../../testing/seed.ts";

const january = new Date(2027, 0, 20, 12, 0, 0);

afterEach(() => {
  vi.setSystemTime(testNow);
});

describe("the winter weight alert", () => {
  it("is set in Settings for this organization, and a light hive in winter may be starving", async () => {
    const client = await openTestClient();
    writeWinterWeight(client.organizationId, undefined);
    vi.setSystemTime(january);
    const home = await seed.apiary(client, { name: "Home meadow" });
    const hive = await seed.hive(client, { apiaryId: home.id, name: "Light one" });
    // Weighed by hand in December, with a note: a visit's weight counts too.
    await seed.inspection(client, {
      hiveId: hive.id,
      date: at(new Date(2026, 11, 28, 10)),
      weightKg: 17.5,
      note: "Lifted the back",
    });

    const settings = await renderAt("/settings", { client });
    const field = await settings.findByRole("textbox", {
      name: /Warn when a hive weighs less than/,
    });
    await settings.user.type(field, "20");
    expect(readWinterWeight(client.organizationId)).toBe(20);
    settings.unmount();

    const page = await renderAt(`/hives/${hive.id}`, { client });
    const alert = await page.findByText("May be starving");
    expect(alert.closest("p")?.textContent).toMatch(
      /17\.5\u00a0kg on Dec 28, 2026: below your winter weight of 20\u00a0kg/,
    );
    page.unmount();

    const overview = await renderAt("/", { client });
    const alerts = within(await findSection("Alerts"));
    expect(alerts.getByRole("link", { name: /^Light one: May be starving/ })).toBeTruthy();
    overview.unmount();

    writeWinterWeight(client.organizationId, undefined);
    const again = await renderAt(`/hives/${hive.id}`, { client });
    await again.findByRole("heading", { level: 1, name: "Light one" });
    expect(again.queryByText("May be starving")).toBeNull();
  });
});
