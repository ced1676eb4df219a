/**
 * The 3-scale account of issue 29 in the app, for its browser test (e2e/scale-account.test.ts)
 * and its bench figures (test/bench/scale-account.ts): the account is seeded by
 * server/src/seed/scales.ts `seedScaleAccount`; what "usable" means on a new device, by what is
 * rendered:
 *
 * - the overview: its "Hives" figure is the account's count of hives, and its recent visits link
 *   the account's newest visit;
 * - every hive page: its name as the heading, the stock card's last visit linking the hive's
 *   newest visit and, on a scale's hive, "Latest readings" with the scale's newest reading's time.
 *
 * Each check runs in the page on every animation frame (`waitForFunction` with raf polling).
 * Words are the English ones: the pages are opened in an en-US profile.
 */
import type { Page } from "playwright-core";
import type { AccountHive, ScaleAccount } from "../../server/src/seed/scales.ts";

/** Wide enough for a first sync of the full account on a slow machine: the bench times it. */
const patient = { polling: "raf" as const, timeout: 15 * 60_000 };

/** Goes to `path` as a tap on a link does (the app's router follows history.pushState). */
export async function goInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((p) => history.pushState(null, "", p), path);
}

/** Waits until the overview shows the account's data (module comment). */
export async function overviewShown(page: Page, account: ScaleAccount): Promise<void> {
  await page.waitForFunction(
    ({ hives, visit }) => {
      const stat = [...document.querySelectorAll(".stat")].find(
        (s) => s.querySelector("dt")?.textContent === "Hives",
      );
      return (
        stat?.querySelector("dd")?.textContent === String(hives) &&
        document.querySelector(`a[href="/inspections/${visit}"]`) !== null
      );
    },
    { hives: account.hives.length, visit: account.newestVisitId },
    patient,
  );
}

/** Waits until the page (opened on the hive) shows the hive's data (module comment). */
export async function hiveShown(
  page: Page,
  hive: AccountHive,
  newestReadingMs: number,
): Promise<void> {
  await page.waitForFunction(
    ({ name, visit, reading }) => {
      if (document.querySelector("h1")?.textContent !== name) return false;
      if (document.querySelector(`.hive-stock a[href="/inspections/${visit}"]`) === null) {
        return false;
      }
      if (reading === undefined) return true;
      // The app's own format of a reading's time (format.ts `dateTime`).
      const when = new Intl.DateTimeFormat(navigator.language, {
        dateStyle: "medium",
        timeStyle: "short",
      }).format(new Date(reading));
      return document.querySelector(".hive-latest__contact")?.textContent?.includes(when) ?? false;
    },
    {
      name: hive.name,
      visit: hive.lastVisitId,
      reading: hive.scale ? newestReadingMs : undefined,
    },
    patient,
  );
}

/**
 * Opens each hive's page in turn (as taps do) and waits until it shows its data; resolves to
 * each page's milliseconds from the tap until then.
 */
export async function everyHiveShown(page: Page, account: ScaleAccount): Promise<number[]> {
  const times: number[] = [];
  for (const hive of account.hives) {
    const start = performance.now();
    await goInApp(page, `/hives/${hive.id}`);
    await hiveShown(page, hive, account.newestReadingMs);
    times.push(performance.now() - start);
  }
  return times;
}

/**
 * In the page: opens the hive page from another screen (as a tap does), scrolls to its charts,
 * chooses the period "All" and waits until the weight chart is drawn over all the hive's
 * measurements (its summary names the day of the oldest, its canvas is there, and two frames
 * have been drawn since). Resolves to the milliseconds from the tap until then, for each of
 * `runs` runs over `hives` in turn; between runs the page goes to the task list.
 */
export async function chartRuns(
  page: Page,
  hives: readonly AccountHive[],
  runs: number,
): Promise<number[]> {
  // Under tsx (the bench), esbuild names the function's inner functions with a `__name` helper
  // the page lacks; a string is not compiled.
  await page.evaluate("globalThis.__name ??= (f) => f");
  return await page.evaluate(
    async ({ hives, runs }) => {
      const frame = () => new Promise<number>((r) => requestAnimationFrame(r));
      const until = async (ready: () => boolean) => {
        const limit = performance.now() + 15 * 60_000;
        while (!ready()) {
          if (performance.now() > limit) throw new Error(`not drawn by ${location.pathname}`);
          await frame();
        }
      };
      const day = new Intl.DateTimeFormat(navigator.language, { dateStyle: "medium" });
      const times: number[] = [];
      for (let run = 0; run < runs; run++) {
        history.pushState(null, "", "/tasks");
        await until(
          () => document.querySelector(".hive-charts") === null && location.pathname === "/tasks",
        );
        await frame();
        const hive = hives[run % hives.length];
        if (hive === undefined) throw new Error("no hive to open");
        // The day of the oldest measurement (or the next: a series aggregated by day may start there).
        const oldestDays = [0, 1].map((d) => day.format(hive.oldest + d * 86_400_000));
        const start = performance.now();
        history.pushState(null, "", `/hives/${hive.id}`);
        await until(() => {
          const charts = document.querySelector(".hive-charts");
          if (charts === null) return false;
          const all = [...charts.querySelectorAll<HTMLInputElement>("input[type=radio]")].find(
            (r) => r.parentElement?.textContent?.trim() === "All",
          );
          if (all === undefined) return false;
          if (!all.checked) {
            charts.scrollIntoView();
            all.click();
            return false;
          }
          const weight = charts.querySelector("figure.chart");
          const summary = weight?.querySelector(".chart__summary")?.textContent ?? "";
          if (!oldestDays.some((d) => summary.includes(d))) {
            weight?.scrollIntoView();
            return false;
          }
          return weight?.querySelector(".chart__plot canvas") !== null;
        });
        await frame();
        await frame();
        times.push(performance.now() - start);
      }
      return times;
    },
    { hives: hives.map((h) => ({ id: h.id, oldest: h.oldestMeasurementMs })), runs },
  );
}

/** The first sync is over: the sync bar says "Synced …", and not "Syncing". */
export async function firstSyncDone(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      document.querySelector(".syncbar__last")?.textContent?.startsWith("Synced ") === true &&
      !/Syncing/.test(document.querySelector(".syncbar__state")?.textContent ?? ""),
    undefined,
    patient,
  );
}
