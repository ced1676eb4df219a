/**
 * A treatment corrected and removed (issue 25): Edit on its row of the hive page opens the form
 * with what it recorded (the withdrawal period back in days), Save changes writes the
 * correction; Delete asks with the action's name and its consequence, then the treatment is gone
 * from the hive page. A treatment's date in the future is refused.
 */
import { fireEvent, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { at, daysAgo } from "../../testing/clock.ts";
import { findSection } from "../../testing/queries.ts";
import { openTestClient, renderAt } from "../../testing/render-screen.tsx";
import { seed } from "../../testing/seed.ts";

async function treated() {
  const client = await openTestClient();
  const home = await seed.apiary(client, { name: "Home meadow" });
  const hive = await seed.hive(client, { apiaryId: home.id, name: "Hive 1" });
  const treatment = await seed.treatment(client, {
    hiveId: hive.id,
    product: "Oxuvar",
    dose: "5 ml",
    reason: "Varroa",
    date: at(daysAgo(10)),
    withdrawalUntil: at(daysAgo(-4)),
  });
  return { client, hive, treatment };
}

describe("editing a treatment", () => {
  it("opens from its row with what it recorded and saves the correction", async () => {
    const { client, hive, treatment } = await treated();
    const app = await renderAt(`/hives/${hive.id}`, { client });
    const treatments = within(await findSection("Treatments"));
    await app.user.click(
      treatments.getByRole("link", { name: "Edit treatment: Oxuvar, Jun 5, 2026" }),
    );
    expect(app.location()).toBe(`/treatments/${treatment.id}/edit`);
    await app.findByRole("heading", { level: 1, name: "Edit treatment with Oxuvar" });
    expect(app.getByLabelText(/^Withdrawal period/)).toHaveProperty("value", "14");
    expect(app.getByLabelText(/^Date/)).toHaveProperty("value", "2026-06-05T10:00");

    const dose = app.getByLabelText(/^Dose/);
    await app.user.clear(dose);
    await app.user.type(dose, "50 ml");
    await app.user.click(app.getByRole("button", { name: "Save changes" }));

    await app.findByRole("heading", { level: 1, name: "Hive 1" });
    expect(app.location()).toBe(`/hives/${hive.id}`);
    expect(await app.findByText("Dose: 50 ml")).toBeTruthy();
    const saved = (await client.treatments.getTreatment({ id: treatment.id })).treatment;
    expect(saved?.dose).toBe("50 ml");
    expect(saved?.product).toBe("Oxuvar");
    expect(saved?.withdrawalUntil).toEqual(treatment.withdrawalUntil);
  });

  it("refuses a date in the future and saves nothing", async () => {
    const { client, treatment } = await treated();
    const app = await renderAt(`/treatments/${treatment.id}/edit`, { client });
    const date = await app.findByLabelText(/^Date/);
    fireEvent.change(date, { target: { value: "2027-06-05T10:00" } });
    expect(app.getByText(/^This date is in the future\./)).toBeTruthy();
    await app.user.click(app.getByRole("button", { name: "Save changes" }));
    expect(app.location()).toBe(`/treatments/${treatment.id}/edit`);
    const saved = (await client.treatments.getTreatment({ id: treatment.id })).treatment;
    expect(saved?.date).toEqual(treatment.date);
  });

  it("deletes it after a confirmation that names the consequence, and it leaves the hive page", async () => {
    const { client, hive, treatment } = await treated();
    const app = await renderAt(`/treatments/${treatment.id}/edit`, { client });
    await app.user.click(await app.findByRole("button", { name: "Delete treatment" }));
    expect(app.getByRole("alert").textContent).toBe(
      "Delete this treatment with Oxuvar of Jun 5, 2026: it leaves the hive's treatment records and its withdrawal period.",
    );
    await app.user.click(app.getByRole("button", { name: "Delete treatment" }));

    const treatments = within(await findSection("Treatments"));
    expect(app.location()).toBe(`/hives/${hive.id}`);
    expect(await treatments.findByText("No treatments recorded.")).toBeTruthy();
    await expect(client.treatments.getTreatment({ id: treatment.id })).rejects.toThrow();
  });
});

describe("a treatment's supplier (issue 26)", () => {
  it("is entered on the form, saved, and shown on the hive page's row", async () => {
    const client = await openTestClient();
    const home = await seed.apiary(client, { name: "Home meadow" });
    const hive = await seed.hive(client, { apiaryId: home.id, name: "Hive 1" });
    const app = await renderAt(`/hives/${hive.id}/treatment`, { client });
    await app.user.type(await app.findByLabelText(/^Product/), "Oxuvar");
    await app.user.type(app.getByLabelText(/^Supplier/), "Apotheke am Markt");
    await app.user.click(app.getByRole("button", { name: /^Save/ }));
    await app.findByRole("heading", { level: 1, name: "Hive 1" });
    const [saved] = (await client.treatments.listTreatments({ hiveId: hive.id })).treatments;
    expect(saved?.supplier).toBe("Apotheke am Markt");
    expect(await app.findByText("Supplier: Apotheke am Markt")).toBeTruthy();
  });
});
