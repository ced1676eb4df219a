/**
 * Photos in the app: stored large (up to 2048 px, within the contract's 512 KiB), shown full
 * screen with zoom, and the photo limit.
 *
 * The photo limit in the app: an inspection holds at most maxInspectionPhotos (core's one rule, the
 * server's and Push's too), so the form takes the first ones of a bigger pick, names the rest,
 * and offers no more once it is full — instead of a save the device's own services would refuse.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { maxInspectionPhotos, maxPhotoBytes } from "@hivekeep/client-core/core";
import { expect, it } from "vitest";
import { useBrowserApp } from "./support/app.ts";
import { browserSuite } from "./support/chromium.ts";
import { heading, pngImage, rpc } from "./support/field.ts";

const screenshots = join(import.meta.dirname, "screenshots");

/** Width and height of a JPEG data URL, from its first start-of-frame marker. */
function jpegSize(dataUrl: string): { width: number; height: number } {
  const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(",") + 1), "base64");
  let at = 2;
  while (at < bytes.length) {
    const marker = bytes[at + 1] ?? 0;
    const length = bytes.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    }
    at += 2 + length;
  }
  throw new Error("no JPEG frame header");
}

browserSuite("PWA: photos of an inspection", () => {
  const app = useBrowserApp();

  it("stores a large photo at 2048 px within 512 KiB and shows it full screen with zoom", async () => {
    const { apiary } = await rpc(app.server, "ApiaryService/CreateApiary", { name: "Zoom yard" });
    const { hive } = await rpc(app.server, "HiveService/CreateHive", {
      name: "Brood",
      apiaryId: apiary.id,
    });
    const { inspection } = await rpc(app.server, "InspectionService/CreateInspection", {
      hiveId: hive.id,
      date: new Date().toISOString(),
    });
    const { page, pageErrors } = await app.openPage({ serviceWorkers: "block" });
    await page.goto(`${app.server.url}/inspections/${inspection.id}`);
    await page.getByLabel("Add photo").waitFor();
    await page.getByLabel("Add photo").setInputFiles([
      { name: "frame.png", mimeType: "image/png", buffer: pngImage(3000) },
      { name: "small.png", mimeType: "image/png", buffer: pngImage(300) },
    ]);
    await page.getByRole("button", { name: "View photo 2 large" }).waitFor();

    // Stored large: the old 640 px could not show eggs. Still within the contract's limit.
    // Written on the device, then pushed: the server's copy is what the contract limits.
    const storedKeys = async (): Promise<string[]> =>
      (await rpc(app.server, "InspectionService/GetInspection", { id: inspection.id })).inspection
        ?.photoKeys ?? [];
    await expect.poll(async () => (await storedKeys()).length, { timeout: 30_000 }).toBe(2);
    const stored = await storedKeys();
    const [large, small] = stored as [string, string];
    expect(large.startsWith("data:image/jpeg;base64,")).toBe(true);
    expect(jpegSize(large)).toEqual({ width: 2048, height: 2048 });
    expect(large.length).toBeLessThanOrEqual(maxPhotoBytes);
    expect(jpegSize(small)).toEqual({ width: 300, height: 300 }); // never enlarged

    // The list shows a small thumbnail (a blob made on the device), not the stored photo.
    const thumb = page.getByRole("button", { name: "View photo 1 large" }).locator("img");
    await expect.poll(() => thumb.getAttribute("src")).toMatch(/^blob:/);
    expect(await thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeLessThan(640);

    // Full screen: zoom in with the button, go to the next photo, close with Escape.
    await page.getByRole("button", { name: "View photo 1 large" }).click();
    const viewer = page.getByRole("dialog", { name: "Photo 1 of 2" });
    await viewer.waitFor();
    const image = viewer.getByRole("img", { name: "Photo 1" });
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2048);
    expect(await viewer.getByRole("button", { name: "Zoom out" }).isDisabled()).toBe(true);
    await viewer.getByRole("button", { name: "Zoom in" }).click();
    await viewer.getByRole("button", { name: "Zoom in" }).click();
    await expect.poll(() => image.getAttribute("data-scale")).toBe("2.25");
    const box = await image.boundingBox();
    expect(box?.width).toBeGreaterThan(390 * 2); // bigger than the phone's screen now
    mkdirSync(screenshots, { recursive: true });
    await page.screenshot({ path: join(screenshots, "photo-viewer-zoomed-phone.png") });
    await viewer.getByRole("button", { name: "Fit to screen" }).click();
    await expect.poll(() => image.getAttribute("data-scale")).toBe("1");
    await page.screenshot({ path: join(screenshots, "photo-viewer-phone.png") });
    await viewer.getByRole("button", { name: "Next photo" }).click();
    await page.getByRole("dialog", { name: "Photo 2 of 2" }).waitFor();
    expect(await page.getByRole("button", { name: "Next photo" }).isDisabled()).toBe(true);
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "hidden" });

    // The phone's back button closes the photo, not the inspection.
    await page.getByRole("button", { name: "View photo 2 large" }).click();
    await page.getByRole("dialog", { name: "Photo 2 of 2" }).waitFor();
    await page.goBack();
    await page.getByRole("dialog").waitFor({ state: "hidden" });
    expect(new URL(page.url()).pathname).toBe(`/inspections/${inspection.id}`);
    await page.getByRole("button", { name: "View photo 1 large" }).waitFor();
    await page.screenshot({
      path: join(screenshots, "photo-thumbnails-phone.png"),
      fullPage: true,
    });
    expect(pageErrors).toEqual([]);

    // A laptop's window: the same viewer, to be looked at.
    const desktop = await app.openPage({ serviceWorkers: "block", size: "desktop" });
    await desktop.page.goto(`${app.server.url}/inspections/${inspection.id}`);
    await desktop.page.getByRole("button", { name: "View photo 1 large" }).click();
    await desktop.page.getByRole("dialog", { name: "Photo 1 of 2" }).waitFor();
    await desktop.page.getByRole("button", { name: "Zoom in" }).click();
    await desktop.page.screenshot({ path: join(screenshots, "photo-viewer-desktop.png") });
    expect(desktop.pageErrors).toEqual([]);
  });

  it("a new device gets an old visit's photo by reference and fetches it when shown", async () => {
    const { apiary } = await rpc(app.server, "ApiaryService/CreateApiary", { name: "Old yard" });
    const { hive } = await rpc(app.server, "HiveService/CreateHive", {
      name: "Archive",
      apiaryId: apiary.id,
    });
    const { inspection } = await rpc(app.server, "InspectionService/CreateInspection", {
      hiveId: hive.id,
      date: new Date(Date.now() - 90 * 86_400_000).toISOString(),
    });
    const photo = `data:image/png;base64,${pngImage(600).toString("base64")}`;
    await rpc(app.server, "InspectionService/AddInspectionPhoto", {
      inspectionId: inspection.id,
      photo,
    });
    const { page, pageErrors } = await app.openPage({ serviceWorkers: "block" });
    const fetched: string[] = [];
    page.on("request", (r) => {
      // Of this inspection: the photos of recent visits (the other tests') are fetched ahead.
      if (r.url().endsWith("/GetPhoto") && r.postData()?.includes(inspection.id)) {
        fetched.push(r.url());
      }
    });
    await page.goto(`${app.server.url}/inspections/${inspection.id}`);
    // The first sync brought the reference; the photo comes when the page shows it, once.
    const thumb = page.getByRole("button", { name: "View photo 1 large" }).locator("img");
    await expect.poll(() => thumb.getAttribute("src"), { timeout: 30_000 }).toMatch(/^blob:/);
    expect(fetched).toHaveLength(1);
    await page.getByRole("button", { name: "View photo 1 large" }).click();
    const image = page.getByRole("dialog", { name: "Photo 1 of 1" }).getByRole("img");
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(600);
    expect(fetched).toHaveLength(1);
    expect(pageErrors).toEqual([]);
  });

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
