/**
 * The hive list: kept hives first by name (natural order), lost and dissolved ones last; each
 * with its status, reigning queen, apiary and last inspection; searched in place.
 */
import { HiveStatus, MarkingColor } from "@hivekeep/proto";
import { describe, expect, it } from "vitest";
import { at, daysAgo } from "../../testing/clock.ts";
import { openTestClient, renderAt } from "../../testing/render-screen.tsx";
import { seed } from "../../testing/seed.ts";

async function threeHives() {
  const client = await openTestClient();
  const home = await seed.apiary(client, { name: "Home meadow" });
  const forest = await seed.apiary(client, { name: "Forest edge" });
  const ten = await seed.hive(client, { apiaryId: home.id, name: "Hive 10", qrCode: "HK-10" });
  const two = await seed.hive(client, { apiaryId: forest.id, name: "Hive 2" });
  const lost = await seed.hive(client, { apiaryId: home.id, name: "Hive 1" });
  await client.hives.updateHive({ hive: { ...lost, status: HiveStatus.LOST } });
  await seed.inspection(client, { hiveId: two.id, date: at(daysAgo(3)), queenSeen: true });
  await seed.queen(client, {
    hiveId: two.id,
    year: 2025,
    marking: MarkingColor.BLUE,
    introducedAt: at(daysAgo(60)),
  });
  return { client, ten, two, lost };
}

describe("the hive list", () => {
  it("lists kept hives by name, then lost ones, each with queen, apiary and last visit", async () => {
    const { client } = await threeHives();
    const app = await renderAt("/hives", { client });
    expect(await app.findByText("3 hives")).toBeTruthy();
    const rows = app.getAllByRole("link", { name: /^Hive \d+/ }).map((l) => l.textContent);
    expect(rows).toEqual([
      expect.stringMatching(
        /^Hive 2(?!\d).*Active.*Queen 2025 · Blue.*Forest edge.*Inspected 3 days ago/,
      ),
      expect.stringMatching(
        /^Hive 10(?!\d).*Active.*No queen recorded.*Home meadow.*Never inspected/,
      ),
      expect.stringMatching(/^Hive 1(?!\d).*Lost.*No queen recorded.*Home meadow.*Never inspected/),
    ]);
  });

  it("counts visits only: a scale's readings after an old visit leave the hive due", async () => {
    const { client, ten } = await threeHives();
    await seed.inspection(client, { hiveId: ten.id, date: at(daysAgo(25)), queenSeen: true });
    for (const d of [20, 10, 1]) {
      await seed.inspection(client, { hiveId: ten.id, date: at(daysAgo(d)), weightKg: 41 });
    }
    const app = await renderAt("/hives", { client });
    const row = await app.findByRole("link", { name: /^Hive 10/ });
    const when = [...row.querySelectorAll(".badge--warn")].map((b) => b.textContent);
    expect(when).toEqual(["Inspected 25 days ago"]);
  });

  it("finds hives by name or QR code as the search is typed", async () => {
    const { client, ten } = await threeHives();
    const app = await renderAt("/hives", { client });
    await app.user.type(await app.findByRole("searchbox", { name: "Search hives" }), "hk-10");
    expect(app.getByText("1 of 3")).toBeTruthy();
    expect(app.getAllByRole("link", { name: /^Hive \d+/ }).map((l) => l.textContent)).toEqual([
      expect.stringMatching(/^Hive 10/),
    ]);
    await app.user.click(app.getByRole("link", { name: /^Hive 10/ }));
    expect(app.location()).toBe(`/hives/${ten.id}`);
  });

  it("says when the search matches nothing, and when there are no hives", async () => {
    const { client } = await threeHives();
    const app = await renderAt("/hives", { client });
    await app.user.type(await app.findByRole("searchbox", { name: "Search hives" }), "Königin");
    expect(app.getByText("No hive matches “Königin”.")).toBeTruthy();

    const empty = await renderAt("/hives");
    expect(await empty.findByText("No hives yet. Add your first hive.")).toBeTruthy();
  });
});
