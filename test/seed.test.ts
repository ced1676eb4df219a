/** `pnpm seed`'s season, run through the public API of a real server. */
import { createConnectTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedSeason } from "../server/src/seed/season.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

describe("the sample season", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer("pglite");
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("fills apiaries, hives, queens, inspections, harvests, treatments and tasks", async () => {
    const transport = createConnectTransport({ baseUrl: t.url, httpVersion: "1.1" });
    const now = new Date("2026-08-15T12:00:00Z");
    const summary = await seedSeason(transport, { now, hivesPerApiary: 2, weeks: 4, seed: 7 });
    expect(summary).toMatchObject({
      apiaries: 4,
      hives: 6,
      inspections: 24,
      harvests: 12,
      tasks: 7,
    });
    expect(summary.queens).toBeGreaterThanOrEqual(6);

    const dash = (await t.call("StatsService/GetDashboard", {})).body;
    expect(dash).toMatchObject({ apiaries: 4, hives: 6, activeQueens: 6, openTasks: 6 });
    expect(dash.honeyKgSeason).toBeGreaterThan(0);
    expect(dash.honeyHistory.length).toBeGreaterThan(0);
    const heath = (await t.call("ApiaryService/ListApiaries", {})).body.apiaries.find(
      (a: { name: string }) => a.name === "Heath meadow",
    );
    // Two hives of each of the three other apiaries moved to the heath.
    expect(heath.hiveCount).toBe(6);

    // The same seed and time give the same season.
    const again = await startTestServer("pglite");
    try {
      const other = await seedSeason(
        createConnectTransport({ baseUrl: again.url, httpVersion: "1.1" }),
        { now, hivesPerApiary: 2, weeks: 4, seed: 7 },
      );
      expect(other).toEqual(summary);
    } finally {
      await again.stop();
    }
  });
});
