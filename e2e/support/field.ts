/**
 * Helpers for driving the field app (the PWA on its device replica) by role and accessible name:
 * the service worker taking control, the sync bar, the main navigation, and the server's JSON API
 * for seeding and checking.
 */
import { crc32, deflateSync } from "node:zlib";
import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";
import type { TestServer } from "../../test/support/server.ts";

/**
 * Opens the app and waits until the service worker controls the page (the shell is precached
 * then, so a reload works offline). The first visit is never controlled (the worker does not
 * claim open pages), so it reloads once.
 */
export async function openControlled(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) {
    await page.reload();
  }
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await mainNav(page).waitFor();
}

/** The sync bar in the header (role status, always shows when it last synced). */
export const syncBar = (page: Page): Locator =>
  page.getByRole("status").filter({ hasText: /Last synced|Not synced yet/ });

/** The sync bar says nothing waits to be pushed. */
export async function waitAllSynced(page: Page): Promise<void> {
  await syncBar(page).filter({ hasText: "All changes synced" }).waitFor();
}

/** The main navigation (bottom bar on a phone, side column on a desktop). */
export const mainNav = (page: Page): Locator => page.getByRole("navigation", { name: "Main" });

/** Follows a link of the main navigation: Overview, Apiaries, Hives, Tasks, Settings. */
export async function navigate(
  page: Page,
  to: "Overview" | "Apiaries" | "Hives" | "Tasks" | "Settings",
): Promise<void> {
  await mainNav(page).getByRole("link", { name: to }).click();
}

/** The screen's heading (level 1). */
export const heading = (page: Page, name: string | RegExp): Locator =>
  page.getByRole("heading", { level: 1, name });

/** A list entry that names a record. */
export const listItem = (page: Page, text: string | RegExp): Locator =>
  page.getByRole("listitem").filter({ hasText: text });

/** A JSON call that must succeed; returns its body. */
// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are checked by the tests.
export async function rpc(server: TestServer, path: string, body: unknown = {}): Promise<any> {
  const reply = await server.call(path, body);
  expect(reply.status, `${path}: ${JSON.stringify(reply.body)}`).toBe(200);
  return reply.body;
}

/**
 * A PNG photo (a honey-coloured square with a darker band) for photo inputs: a real image the
 * browser decodes and resizes, generated here so no file is kept in the repository.
 */
export function pngImage(size = 64): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, "latin1");
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  const rows = Buffer.alloc(size * (1 + size * 3));
  for (let y = 0; y < size; y++) {
    const band = y > size / 3 && y < (2 * size) / 3;
    for (let x = 0; x < size; x++) {
      const at = y * (1 + size * 3) + 1 + x * 3;
      rows[at] = band ? 0x6b : 0xe0;
      rows[at + 1] = band ? 0x45 : 0x9b;
      rows[at + 2] = band ? 0x10 : 0x14;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
