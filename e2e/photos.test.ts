/**
 * The photo limit in the app: an inspection holds at most maxInspectionPhotos (core's one rule, the
 * server's and Push's too), so the form takes the first ones of a bigger pick, names the rest,
 * and offers no more once it is full — instead of a save the device's own services would refuse.
 */
import { maxInspectionPhotos } from "@hivekeep/client-core/core";
import { expect, it } from "vitest";
import { useBrowserApp } from "./support/app.ts";
import { browserSuite } from "./support/chromium.ts";
import { heading, pngImage, rpc } from "./support/field.ts";

browserSuite("PWA: photos of an inspection", () => {
  const app = useBrowserApp();

  it("takes at most the limit from a bigger pick, names the rest, then offers no more", async () => {
    const { apiary } = await rpc(app.server, "ApiaryService/CreateApiary", { name: "Photo yard" });
    const { hive } = await rpc(app.server, "HiveService/CreateHive", {
      name: "Snapshot",
      apiaryId: apiary.id,
    });
    const { page, pageErrors } = await app.openPage({ serviceWorkers: "block" });
    await page.goto(`${app.server.url}/hives/${hive.id}/inspect`);
    await heading(page, "Inspect Snapshot").waitFor();

    // Distinct images (sizes differ), one more than fits.
    const files = Array.from({ length: maxInspectionPhotos + 1 }, (_, i) => ({
      name: `frame-${i + 1}.png`,
      mimeType: "image/png",
      buffer: pngImage(40 + i),
    }));
    await page.getByLabel("Choose from gallery").setInputFiles(files);
    await page.getByRole("img", { name: `Photo ${maxInspectionPhotos}` }).waitFor();
    await page
      .getByText(
        `An inspection holds at most ${maxInspectionPhotos} photos. Not added: “frame-21.png”`,
      )
      .waitFor();
    expect(await page.getByRole("img", { name: /^Photo \d+$/ }).count()).toBe(maxInspectionPhotos);
    expect(await page.getByLabel("Choose from gallery").isDisabled()).toBe(true);
    expect(await page.getByLabel("Take photo").isDisabled()).toBe(true);

    await page.getByRole("button", { name: "Save inspection" }).click();
    await heading(page, "Snapshot").waitFor();
    await expect
      .poll(
        async () =>
          (await rpc(app.server, "InspectionService/ListInspections", { hiveId: hive.id }))
            .inspections?.[0]?.photoKeys?.length,
        { timeout: 30_000 },
      )
      .toBe(maxInspectionPhotos);
    expect(pageErrors).toEqual([]);
  });
});
