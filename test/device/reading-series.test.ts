/**
 * A device's reading series against a real server (issue 29, device/reading-series-cache.ts):
 * the days before the readings window are GetReadingSeries' buckets, the same as the server
 * answers, kept for offline use after the device lets the old readings go; the window's days are
 * the replica's own.
 */
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { type HivekeepClient, windowCutoff } from "@hivekeep/client-core";
import { readingSeries, type SeriesRow, seriesDayMs } from "@hivekeep/client-core/core";
import { bucketsOf } from "@hivekeep/client-core/ops";
import { InspectionService } from "@hivekeep/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { Network, openDevice } from "./harness.ts";

const day = seriesDayMs;

describe.each(databaseKinds)("a device's reading series on %s", (kind) => {
  let t: TestServer;
  const open: HivekeepClient[] = [];
  beforeAll(async () => {
    t = await startTestServer(kind);
  });
  afterAll(async () => {
    for (const c of open) await c.close();
    await t?.stop();
  });

  it("draws the server's buckets before the window, its own readings in it, and the cache offline", async () => {
    const net = new Network(t.url);
    const calls = { n: 0 };
    net.intercept = (url, _init, forward) => {
      if (url.endsWith("/GetReadingSeries")) calls.n += 1;
      return forward();
    };
    const c = await openDevice({ net, readingDays: 7 });
    open.push(c);
    const apiaryId = (await c.apiaries.createApiary({ name: "Scales" })).apiary?.id ?? "";
    const hiveId = (await c.hives.createHive({ apiaryId, name: "S1" })).hive?.id ?? "";
    await c.sync.syncNow();
    // 30 days of readings every 3 hours, posted by the scale to the server.
    const now = Date.now();
    const server = t.client(InspectionService);
    const readings = Array.from({ length: 240 }, (_, k) => ({
      hiveId,
      date: timestampFromMs(now - 30 * day + k * 3 * 3_600_000),
      weightKg: 30 + (k % 11) * 0.37,
      tempHive: k % 3 === 0 ? 0 : 20 + (k % 5),
    }));
    await server.createReadings({ readings });
    await c.sync.syncNow();

    const from = now - 31 * day;
    const got = await c.readings.series(hiveId, from, now);
    const cutoff = windowCutoff(c.now().getTime(), 7);
    expect(got.cutoff).toBe(cutoff);
    expect(calls.n).toBe(1);
    const asked = Math.floor(from / day) * day;
    const onServer = bucketsOf(
      await server.getReadingSeries({
        hiveId,
        from: timestampFromMs(asked),
        to: timestampFromMs(cutoff),
      }),
    );
    expect(got.buckets.filter((b) => b.start < cutoff)).toEqual(onServer);
    const held = (
      await c.inspections.listInspections({ hiveId, page: { pageSize: 500 } })
    ).inspections.map(
      (i): SeriesRow => ({
        id: i.id,
        at: Number(i.date?.seconds ?? 0) * 1000,
        values: { weight_kg: i.weightKg, temp_hive: i.tempHive },
      }),
    );
    // The device holds the window's readings only (Pull's readings window let the rest go): its
    // days are the rule over them.
    expect(held.length).toBeGreaterThan(0);
    expect(held.every((r) => r.at >= cutoff)).toBe(true);
    expect(got.buckets.filter((b) => b.start >= cutoff)).toEqual(
      readingSeries(held, cutoff, Math.ceil(now / day) * day, 1),
    );

    // It loses its signal: the chart's old days are the cached buckets.
    net.offline = true;
    const offline = await c.readings.series(hiveId, from, now);
    expect(offline.buckets).toEqual(got.buckets);
    expect(calls.n).toBe(1);
  });
});
