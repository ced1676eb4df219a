/**
 * The treatment register (issue 26): every treatment of the year with the columns the law asks
 * for; a corrected entry shows its replaced version struck through with when and by whom, a
 * deleted one stays, struck through; the year and apiary choose what it lists; harvests taken
 * inside a withdrawal period are listed; it is linked from settings and the apiary page.
 */
import { within } from "@testing-library/react";
import { describe, expect, it, onTestFinished } from "vitest";
import { setLanguage } from "../../i18n.ts";
import { at, daysAgo } from "../../testing/clock.ts";
import { openTestClient, renderAt } from "../../testing/render-screen.tsx";
import { seed } from "../../testing/seed.ts";

async function treatedTwice() {
  const client = await openTestClient();
  const home = await seed.apiary(client, { name: "Home meadow" });
  const far = await seed.apiary(client, { name: "Far field" });
  const hive = await seed.hive(client, { apiaryId: home.id, name: "Hive 1" });
  const other = await seed.hive(client, { apiaryId: far.id, name: "Hive 9" });
  const oxuvar = await seed.treatment(client, {
    hiveId: hive.id,
    product: "Oxuvar",
    activeIngredient: "oxalic acid",
    dose: "5 ml",
    method: "trickling",
    batchNumber: "L-22",
    supplier: "Apotheke am Markt",
    reason: "Varroa",
    date: at(daysAgo(30)),
    withdrawalUntil: at(daysAgo(-4)),
  });
  await client.treatments.updateTreatment({ treatment: { ...oxuvar, dose: "50 ml" } });
  const wrong = await seed.treatment(client, {
    hiveId: other.id,
    product: "Thymovar",
    date: at(daysAgo(20)),
  });
  await client.treatments.deleteTreatment({ id: wrong.id });
  await seed.harvest(client, { hiveId: hive.id, amountKg: 12, date: at(daysAgo(2)) });
  return { client, home, far, hive };
}

describe("the treatment register", () => {
  it("lists every treatment with the register's columns, a correction and a deletion struck through", async () => {
    const { client } = await treatedTwice();
    const app = await renderAt("/register", { client });
    await app.findByRole("heading", { level: 1, name: "Treatment register 2026" });
    const table = within(app.getByRole("table"));
    const headers = table.getAllByRole("columnheader").map((h) => h.textContent);
    expect(headers).toEqual([
      "Date",
      "Hive",
      "Apiary",
      "Product",
      "Active ingredient",
      "Batch number",
      "Dose",
      "Method",
      "End of withdrawal",
      "Reason",
      "Recorded by",
      "Supplier",
      "Status",
    ]);
    const rows = table.getAllByRole("row").slice(1);
    expect(rows).toHaveLength(3);
    const [replaced, standing, deleted] = rows.map((r) => within(r));
    expect(replaced?.getByText("5 ml")).toBeTruthy();
    expect(
      replaced?.getByText(/^Replaced by a correction on .* \(the beekeeper \(single user\)\)$/),
    ).toBeTruthy();
    expect(rows[0]?.className).toContain("register-line--replaced");
    expect(standing?.getByText("50 ml")).toBeTruthy();
    expect(standing?.getByText("Apotheke am Markt")).toBeTruthy();
    expect(standing?.getByText("L-22")).toBeTruthy();
    expect(standing?.getByText("Jun 19, 2026")).toBeTruthy(); // the end of withdrawal
    expect(standing?.getByText("Corrected")).toBeTruthy();
    expect(standing?.getAllByText("the beekeeper (single user)")).toHaveLength(1);
    expect(deleted?.getByText("Thymovar")).toBeTruthy();
    expect(deleted?.getByText("Far field")).toBeTruthy();
    expect(deleted?.getByText(/^Deleted on .* \(the beekeeper \(single user\)\)$/)).toBeTruthy();
    expect(rows[2]?.className).toContain("register-line--deleted");
    // A harvest two days ago lies inside Oxuvar's withdrawal period.
    expect(within(app.getByTestId("register-harvests")).getByText(/Hive 1 · 12 kg/)).toBeTruthy();
  });

  it("lists one apiary's treatments, and other years, as chosen", async () => {
    const { client, far } = await treatedTwice();
    const app = await renderAt(`/register?apiary=${far.id}`, { client });
    await app.findByRole("heading", { level: 1, name: "Treatment register 2026 · Far field" });
    expect(within(app.getByRole("table")).getAllByRole("row")).toHaveLength(2);
    await app.user.selectOptions(app.getByLabelText(/^Year/), "2025");
    expect(app.location()).toBe(`/register?year=2025&apiary=${far.id}`);
    expect(await app.findByText("No treatments recorded for this selection.")).toBeTruthy();
  });

  it("is reached from settings and from an apiary's page", async () => {
    const { client, home } = await treatedTwice();
    const app = await renderAt("/settings", { client });
    await app.user.click(await app.findByRole("link", { name: /^Treatment register/ }));
    expect(app.location()).toBe("/register");
    const page = await renderAt(`/apiaries/${home.id}`, { client });
    const link = await page.findAllByRole("link", { name: "Treatment register" });
    expect(link.at(-1)?.getAttribute("href")).toBe(`/register?apiary=${home.id}`);
  });

  it("speaks German", async () => {
    const { client } = await treatedTwice();
    await setLanguage("de");
    onTestFinished(() => setLanguage("en"));
    const app = await renderAt("/register", { client });
    await app.findByRole("heading", { level: 1, name: "Bestandsbuch 2026" });
    expect(app.getByRole("columnheader", { name: "Ende der Wartezeit" })).toBeTruthy();
    expect(app.getByRole("columnheader", { name: "Bezugsquelle" })).toBeTruthy();
  });
});
