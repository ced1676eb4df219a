/**
 * Running withdrawal periods (issue 26), one rule (client-core's core/withdrawal.ts): the overview
 * lists each with its hive and end, the hive list says it on the hive's row, and a harvest taken
 * inside one is marked on the hive page, also when the treatment was entered after the harvest.
 */
import { within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { at, daysAgo } from "../../testing/clock.ts";
import { findSection } from "../../testing/queries.ts";
import { openTestClient, renderAt } from "../../testing/render-screen.tsx";
import { seed } from "../../testing/seed.ts";

async function withdrawing() {
  const client = await openTestClient();
  const home = await seed.apiary(client, { name: "Home meadow" });
  const hive = await seed.hive(client, { apiaryId: home.id, name: "Hive 1" });
  const clear = await seed.hive(client, { apiaryId: home.id, name: "Hive 2" });
  // Honey first, the treatment entered afterwards (dated before the harvest).
  await seed.harvest(client, { hiveId: hive.id, amountKg: 8, date: at(daysAgo(3)) });
  await seed.harvest(client, { hiveId: clear.id, amountKg: 5, date: at(daysAgo(3)) });
  await seed.treatment(client, {
    hiveId: hive.id,
    product: "Oxuvar",
    date: at(daysAgo(10)),
    withdrawalUntil: at(daysAgo(-4)),
  });
  await seed.treatment(client, {
    hiveId: clear.id,
    product: "Old one",
    date: at(daysAgo(100)),
    withdrawalUntil: at(daysAgo(60)),
  });
  return { client, hive, clear };
}

describe("running withdrawal periods", () => {
  it("are listed on the overview with their hive and end", async () => {
    const { client } = await withdrawing();
    const app = await renderAt("/", { client });
    const list = within(await app.findByTestId("running-withdrawals"));
    expect(list.getAllByRole("listitem")).toHaveLength(1);
    expect(list.getByText("Hive 1")).toBeTruthy();
    expect(list.getByText("Oxuvar")).toBeTruthy();
    expect(list.getByText("Until Jun 19, 2026")).toBeTruthy();
  });

  it("are said on the hive list's row", async () => {
    const { client } = await withdrawing();
    const app = await renderAt("/hives", { client });
    const row = (await app.findByText("Hive 1")).closest("li") as HTMLElement;
    expect(within(row).getByText("Withdrawal until Jun 19, 2026")).toBeTruthy();
    const other = app.getByText("Hive 2").closest("li") as HTMLElement;
    expect(within(other).queryByText(/Withdrawal until/)).toBeNull();
  });

  it("mark a harvest taken inside one, and only that one", async () => {
    const { client, hive, clear } = await withdrawing();
    const app = await renderAt(`/hives/${hive.id}`, { client });
    const harvests = within(await findSection("Harvests"));
    expect(harvests.getByTestId("harvest-in-withdrawal").textContent).toBe(
      "Taken during withdrawal period (until Jun 19, 2026) · Oxuvar",
    );
    app.unmount();
    const other = await renderAt(`/hives/${clear.id}`, { client });
    within(await findSection("Harvests"));
    expect(other.queryByTestId("harvest-in-withdrawal")).toBeNull();
  });
});
