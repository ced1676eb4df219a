/**
 * The hive page's long charts (issue 29): the days before the readings window come from the
 * device's cached reading series (the server's day buckets; here put in the cache as a fetch
 * would, so no network is asked), the window's days from the readings the device holds. The
 * chart's text counts every measurement the buckets stand for and keeps their extremes.
 */
import { packBucket, windowCutoff } from "@hivekeep/client-core";
import { defaultReadingDays, type SeriesBucket } from "@hivekeep/client-core/core";
import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { at, daysAgo, testNow } from "../../testing/clock.ts";
import { openTestClient, renderAt } from "../../testing/render-screen.tsx";
import { seed } from "../../testing/seed.ts";

const day = 86_400_000;

describe("the hive page's measurement charts", () => {
  it("draw a year from the cached day buckets and the window's own readings", async () => {
    const client = await openTestClient();
    const home = await seed.apiary(client, { name: "Home meadow" });
    const hive = await seed.hive(client, { apiaryId: home.id, name: "Scale hive" });
    // The window's readings, on the device: two of them.
    await seed.inspection(client, { hiveId: hive.id, date: at(daysAgo(2)), weightKg: 44 });
    await seed.inspection(client, { hiveId: hive.id, date: at(daysAgo(1)), weightKg: 45 });
    // Older days as the server answered them (96 readings a day), fetched just now.
    const cutoff = windowCutoff(testNow.getTime(), defaultReadingDays);
    const first = cutoff - 200 * day;
    const buckets: SeriesBucket[] = Array.from({ length: 200 }, (_, k) => ({
      start: first + k * day,
      count: 96,
      columns: {
        weight_kg: {
          count: 96,
          min: k === 120 ? 31.5 : 40,
          max: k === 150 ? 58.25 : 42,
          mean: 41,
        },
      },
    }));
    await client.db.series.bulkPut(buckets.map((b) => packBucket(hive.id, b)));
    await client.db.seriesRanges.put({
      hiveId: hive.id,
      from: first - 200 * day,
      to: cutoff,
      fetchedAt: testNow.getTime(),
    });

    await renderAt(`/hives/${hive.id}`, { client });
    const summary = await screen.findByText(/^Hive weight: 19202 measurements/);
    expect(summary.textContent).toMatch(
      /between 31\.5\u00a0kg and 58\.3\u00a0kg; latest 45\u00a0kg/,
    );
    expect(await client.db.seriesRanges.get(hive.id)).toMatchObject({
      fetchedAt: testNow.getTime(),
    });
  });

  it("draw every period from one read of the series: a choice draws at once, counting its own days", async () => {
    const client = await openTestClient();
    const home = await seed.apiary(client, { name: "Home meadow" });
    const hive = await seed.hive(client, { apiaryId: home.id, name: "Scale hive" });
    await seed.inspection(client, { hiveId: hive.id, date: at(daysAgo(2)), weightKg: 44 });
    await seed.inspection(client, { hiveId: hive.id, date: at(daysAgo(1)), weightKg: 45 });
    // Two years of day buckets before the window: 12 months show part of them, "All" every one.
    const cutoff = windowCutoff(testNow.getTime(), defaultReadingDays);
    const first = cutoff - 730 * day;
    const buckets: SeriesBucket[] = Array.from({ length: 730 }, (_, k) => ({
      start: first + k * day,
      count: 10,
      columns: { weight_kg: { count: 10, min: 40, max: 42, mean: 41 } },
    }));
    await client.db.series.bulkPut(buckets.map((b) => packBucket(hive.id, b)));
    await client.db.seriesRanges.put({
      hiveId: hive.id,
      from: first,
      to: cutoff,
      fetchedAt: testNow.getTime(),
    });
    // Each read of the series waits until the test lets it answer.
    const read = client.readings.series.bind(client.readings);
    const gates: (() => void)[] = [];
    client.readings.series = async (...args) => {
      await new Promise<void>((open) => gates.push(open));
      return read(...args);
    };
    const weightSummary = () =>
      [...document.querySelectorAll(".chart__summary")].map((e) => e.textContent ?? "")[0];

    const app = await renderAt(`/hives/${hive.id}`, { client });
    // 12 months: until the series is read, no chart (not the window's two readings alone).
    expect(await screen.findByText("Loading the chart…")).toBeTruthy();
    expect(weightSummary()).toBeUndefined();
    await waitFor(() => expect(gates.length).toBe(1));
    for (const open of gates.splice(0)) open();
    // The buckets of the UTC days that reach into the last 365 days (to the end of today).
    const endOfToday = new Date(testNow);
    endOfToday.setHours(24, 0, 0, 0);
    const yearStart = endOfToday.getTime() - 365 * day;
    const inYear = buckets.filter((b) => b.start + day > yearStart).length;
    expect(inYear).toBeLessThan(730);
    await screen.findByText(new RegExp(`^Hive weight: ${10 * inYear + 2} measurements`));

    // "All", then 30 days: drawn from the same read, none asked anew.
    await app.user.click(screen.getByRole("radio", { name: "All" }));
    expect(weightSummary()).toMatch(/^Hive weight: 7302 measurements/);
    await app.user.click(screen.getByRole("radio", { name: "30 days" }));
    const monthStart = endOfToday.getTime() - 30 * day;
    const inMonth = buckets.filter((b) => b.start + day > monthStart).length;
    expect(weightSummary()).toMatch(new RegExp(`^Hive weight: ${10 * inMonth + 2} measurements`));
    expect(gates).toHaveLength(0);
  });

  it("say there is nothing only when neither the device nor the cached series has a measurement", async () => {
    const client = await openTestClient();
    const home = await seed.apiary(client, { name: "Home meadow" });
    const hive = await seed.hive(client, { apiaryId: home.id, name: "Empty hive" });
    await renderAt(`/hives/${hive.id}`, { client });
    expect(await screen.findByText(/^No measurements yet/)).toBeTruthy();
  });
});
