/**
 * Helpers for driving the field app (the PWA on its device replica) by role and accessible name:
 * the service worker taking control, the sync bar, the main navigation, and the server's JSON API
 * for seeding and checking.
 */
import { crc32, deflateSync } from "node:zlib";
import { decodePullResponse, encodePushRequest, type SyncChange } from "@hivekeep/client-core/sync";
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
  page.getByRole("status").filter({ hasText: /Synced|Last synced|Not synced yet/ });

/** The sync bar says nothing waits to be pushed ("Synced now", "Synced 5 min. ago"). */
export async function waitAllSynced(page: Page): Promise<void> {
  await syncBar(page)
    .filter({ hasText: /Synced / })
    .waitFor();
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

/** A change as the device pushes it, with its payload parsed. */
export interface PushedChange extends SyncChange {
  readonly payload: Record<string, unknown>;
}

/**
 * Rewrites one change of the device's next Push that `rewrite` picks (it returns the changed
 * change, or undefined to leave it), then lets the request go on to the server; later Pushes pass
 * untouched. A Push is binary protobuf (a PushRequest's changes are field 1, as a PullResponse's:
 * client-core's wire codec reads and writes both). Resolves to the change as it was sent once
 * one has been rewritten.
 */
export async function rewriteOnePushedChange(
  page: Page,
  rewrite: (change: PushedChange) => SyncChange | undefined,
): Promise<{ rewritten: Promise<SyncChange>; all: SyncChange[][] }> {
  let done = false;
  let resolve: (c: SyncChange) => void = () => {};
  const rewritten = new Promise<SyncChange>((r) => {
    resolve = r;
  });
  /** Every Push the server received from the page, as sent. */
  const all: SyncChange[][] = [];
  await page.route("**/hivekeep.v1.SyncService/Push", async (route) => {
    const body = route.request().postDataBuffer();
    const { changes } = decodePullResponse(new Uint8Array(body ?? Buffer.alloc(0)));
    let picked: SyncChange | undefined;
    const sent = changes.map((c) => {
      if (done || picked) return c;
      picked = rewrite({ ...c, payload: JSON.parse(c.payloadJson || "{}") });
      return picked ?? c;
    });
    if (picked === undefined) {
      all.push(changes);
      return route.continue();
    }
    await route.continue({ postData: Buffer.from(encodePushRequest(sent)) });
    // Only a Push the server answered counts: one that failed on the way (offline) is sent
    // again by the device, and rewritten again.
    if ((await route.request().response()) !== null) {
      done = true;
      all.push(sent);
      resolve(picked);
    }
  });
  return { rewritten, all };
}

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

/** What seedSeason wrote. */
export interface Season {
  readonly apiaryId: string;
  readonly otherApiaryId: string;
  readonly hiveId: string;
  readonly inspectionId: string;
  readonly queenId: string;
  readonly treatmentId: string;
  /** An open task of the hive. */
  readonly taskId: string;
}

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

/**
 * A small season through the server's JSON API, so every screen has something to show: two
 * apiaries, three hives, inspections (one with a photo and readings), a queen, a treatment still
 * in its withdrawal period, two harvests and tasks (overdue, due, done).
 */
export async function seedSeason(server: TestServer): Promise<Season> {
  const call = (path: string, body: unknown) => rpc(server, path, body);
  const { apiary } = await call("ApiaryService/CreateApiary", {
    name: "Lindenhof",
    address: "Am Lindenhof 3, 79112 Freiburg",
    lat: 47.99,
    lng: 7.84,
  });
  const { apiary: other } = await call("ApiaryService/CreateApiary", {
    name: "Rapsfeld Nord",
    address: "Feldweg 12",
  });
  const { hive } = await call("HiveService/CreateHive", {
    apiaryId: apiary.id,
    name: "Volk 1 Carnica",
    type: "HIVE_TYPE_ZANDER",
    boxes: 2,
    colonyOrigin: "Swarm from the orchard",
    qrCode: "HK-0001",
  });
  await call("HiveService/CreateHive", { apiaryId: apiary.id, name: "Volk 2", boxes: 1 });
  await call("HiveService/CreateHive", { apiaryId: other.id, name: "Ableger 3", boxes: 1 });
  const { queen } = await call("QueenService/CreateQueen", {
    hiveId: hive.id,
    year: new Date().getFullYear() - 1,
    origin: "Own breeding",
    breederNumber: "DE-0815",
    introducedAt: daysAgo(300),
  });
  await call("InspectionService/CreateInspection", {
    hiveId: hive.id,
    date: daysAgo(30),
    queenSeen: true,
    eggsSeen: true,
    frames: 18,
    broodFrames: 6,
    stores: "STORES_MEDIUM",
    temperament: "TEMPERAMENT_GENTLE",
    calmness: 3,
    note: "Calm colony, good brood pattern.",
  });
  const { inspection } = await call("InspectionService/CreateInspection", {
    hiveId: hive.id,
    date: daysAgo(6),
    queenSeen: true,
    eggsSeen: true,
    coveredLarva: true,
    frames: 20,
    broodFrames: 8,
    stores: "STORES_GOOD",
    temperament: "TEMPERAMENT_GENTLE",
    calmness: 4,
    queenCells: 2,
    varroa: "4 mites in 3 days (board)",
    superAdded: true,
    weightKg: 42.5,
    tempHive: 34.5,
    tempOutside: 21,
    humidityHive: 61,
    humidityOutside: 55,
    weather: "Sunny",
    note: "Two queen cells on frame 5, broken down.",
  });
  await call("InspectionService/AddInspectionPhoto", {
    inspectionId: inspection.id,
    photo: `data:image/png;base64,${pngImage(160).toString("base64")}`,
  });
  const { treatment } = await call("TreatmentService/CreateTreatment", {
    hiveId: hive.id,
    product: "Oxuvar 5.7%",
    activeIngredient: "Oxalic acid",
    dose: "30 ml",
    method: "Trickling",
    batchNumber: "OX-2291",
    date: daysAgo(3),
    withdrawalUntil: new Date(Date.now() + 20 * 86_400_000).toISOString(),
  });
  for (const [days, kg, variety] of [
    [60, 12.5, "Spring blossom"],
    [20, 9, "Summer"],
  ] as const) {
    await call("HarvestService/CreateHarvest", {
      hiveId: hive.id,
      date: daysAgo(days),
      amountKg: kg,
      variety,
      waterContent: 17.2,
      batchNumber: `L-${days}`,
    });
  }
  const { task: hiveTask } = await call("TaskService/CreateTask", {
    title: "Check the queen cells",
    hiveId: hive.id,
    dueAt: daysAgo(2),
    priority: "TASK_PRIORITY_HIGH",
  });
  await call("TaskService/CreateTask", {
    title: "Mow around the stands",
    apiaryId: apiary.id,
    dueAt: new Date(Date.now() + 5 * 86_400_000).toISOString(),
  });
  const { task } = await call("TaskService/CreateTask", { title: "Order jars" });
  await call("TaskService/SetTaskDone", { id: task.id, done: true });
  return {
    apiaryId: apiary.id,
    otherApiaryId: other.id,
    hiveId: hive.id,
    inspectionId: inspection.id,
    queenId: queen.id,
    treatmentId: treatment.id,
    taskId: hiveTask.id,
  };
}
