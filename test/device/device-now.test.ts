/**
 * A device's "now" (issue 25): the wall clock corrected by the offset to the server's clock,
 * measured at the last Push or Pull. The local services record with it, and the app defaults
 * its forms' dates from it (`client.now()`, pwa/src/app/now.tsx), so a phone whose clock runs
 * two days ahead neither proposes nor records a date the rule of core/happened.ts refuses.
 */
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import type { HivekeepClient } from "@hivekeep/client-core";
import { EventService } from "@hivekeep/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { Network, openDevice } from "./harness.ts";

const days = 24 * 3_600_000;
/** Generous bounds for a test's own run time; none of them near the two days. */
const minute = 60_000;

describe.each(databaseKinds)("a device's now on %s", (kind) => {
  let t: TestServer;
  const open: HivekeepClient[] = [];
  beforeAll(async () => {
    t = await startTestServer(kind);
  });
  afterAll(async () => {
    for (const c of open) await c.close();
    await t?.stop();
  });

  it("is the wall clock until the device has met the server, then the server-corrected clock", async () => {
    const ahead = await openDevice({ net: new Network(t.url), now: () => Date.now() + 2 * days });
    open.push(ahead);
    // Never synced: no offset known yet, the device's own clock.
    expect(Math.abs(ahead.now().getTime() - (Date.now() + 2 * days))).toBeLessThan(minute);

    const apiaryId = (await ahead.apiaries.createApiary({ name: "Ahead" })).apiary?.id ?? "";
    await ahead.sync.syncNow();
    expect(Math.abs(ahead.now().getTime() - Date.now())).toBeLessThan(minute);

    // The phone's raw clock (two days ahead) names a date the device's own services refuse...
    const raw = new Date(Date.now() + 2 * days);
    const refused = await ahead.hives
      .createHive({ apiaryId, name: "Raw", date: timestampFromDate(raw) })
      .catch((e: unknown) => ConnectError.from(e));
    expect(refused).toMatchObject({
      code: Code.InvalidArgument,
      rawMessage: "date cannot be in the future",
    });
    // ...and its corrected now is accepted there and by the server.
    const hive = (
      await ahead.hives.createHive({
        apiaryId,
        name: "Corrected",
        date: timestampFromDate(ahead.now()),
      })
    ).hive;
    await ahead.sync.syncNow();
    expect(ahead.sync.status.quarantined).toEqual([]);
    const events = await t.client(EventService).listEvents({ hiveId: hive?.id ?? "" });
    expect(events.events).toHaveLength(1);
    const created = events.events[0]?.date;
    expect(created && Math.abs(Number(created.seconds) * 1000 - Date.now())).toBeLessThan(minute);
  });
});
