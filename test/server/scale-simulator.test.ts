/**
 * A simulated hive scale on a flaky GSM link, against the real server on every database (issue
 * 29): it posts a reading every 15 minutes with an Idempotency-Key; some requests never arrive
 * and some answers are lost after the server wrote, and the scale retries each with the same key
 * until it hears an answer. Then it is offline for a week, and uploads the 672 readings of its
 * backlog in batches of CreateReadings with a key per reading; one batch's answer is lost and the
 * batch is sent again, and the next batch overlaps it. Every reading is stored once:
 * ListInspections and the feed show each once. The link's faults follow a fixed pattern (no
 * randomness, no timing), and the server's clock is fixed after the week.
 */
import { describe, expect, it } from "vitest";
import { databaseKinds } from "../support/databases.ts";
import { callOk, pullAll, useTestServer, withApiaryAndHive } from "../support/fixtures.ts";
import type { JsonReply } from "../support/server.ts";

const quarter = 15 * 60_000;
const dayStart = Date.parse("2026-06-01T00:00:00Z");

/** What happens to the nth request the scale sends (a fixed pattern). */
type Fate = "delivered" | "request lost" | "answer lost";
const fateOf = (n: number): Fate =>
  n % 7 === 3 ? "request lost" : n % 5 === 1 ? "answer lost" : "delivered";

describe.each(databaseKinds)("A hive scale on a flaky link, on %s", (kind) => {
  const t = useTestServer(kind, {}, { now: () => Date.parse("2026-06-09T00:00:00Z") });
  let hiveId = "";
  let sent = 0;
  const faults = { "request lost": 0, "answer lost": 0, retries: 0 };

  /** One request over the flaky link: undefined when the scale heard no answer. */
  async function overLink(
    path: string,
    body: unknown,
    headers: Record<string, string>,
    fate: Fate,
  ): Promise<JsonReply | undefined> {
    sent++;
    if (fate === "request lost") {
      faults[fate]++;
      return undefined;
    }
    const reply = await t.call(path, body, headers);
    if (fate === "answer lost") {
      faults[fate]++;
      return undefined;
    }
    return reply;
  }

  /** Sends until an answer comes back, with the same key and body every time. */
  async function untilAnswered(
    path: string,
    body: unknown,
    headers: Record<string, string> = {},
    fates: (attempt: number) => Fate = () => fateOf(sent),
  ): Promise<JsonReply> {
    for (let attempt = 0; attempt < 10; attempt++) {
      if (attempt > 0) faults.retries++;
      const reply = await overLink(path, body, headers, fates(attempt));
      if (reply) {
        expect(reply.status, JSON.stringify(reply.body)).toBe(200);
        return reply;
      }
    }
    throw new Error(`${path}: no answer after 10 attempts`);
  }

  it("posts a day of readings, each retried with its key until answered: each is written once", async () => {
    ({ hiveId } = await withApiaryAndHive(t));
    const ids = new Set<string>();
    for (let i = 0; i < 96; i++) {
      const date = new Date(dayStart + i * quarter).toISOString();
      const reading = { hiveId, date, weightKg: 40 + i / 100, tempHive: 34 };
      const reply = await untilAnswered("InspectionService/CreateInspection", reading, {
        "Idempotency-Key": `scale-7:${date}`,
      });
      ids.add(reply.body.inspection.id);
    }
    expect(ids.size).toBe(96);
    // The link did fail, both ways, and the scale retried.
    expect(faults["request lost"]).toBeGreaterThan(5);
    expect(faults["answer lost"]).toBeGreaterThan(5);
    expect(faults.retries).toBe(faults["request lost"] + faults["answer lost"]);
    const listed = await callOk(t, "InspectionService/ListInspections", {
      hiveId,
      page: { pageSize: 500 },
    });
    expect(listed.page.total).toBe(96);
  });

  it("uploads a week's backlog (672 readings) in batches, one lost answer retried and one batch overlapping: each reading once", async () => {
    const weekStart = dayStart + 96 * quarter;
    const backlog = Array.from({ length: 672 }, (_, i) => {
      const date = new Date(weekStart + i * quarter).toISOString();
      return { hiveId, date, idempotencyKey: `scale-7:${date}`, weightKg: 41 + (i % 40) / 100 };
    });
    const created: string[] = [];
    const size = 200;
    // Batches of 200; each after the first starts 20 readings early (the scale did not know
    // whether the end of the last one arrived). The second batch's first answer is lost.
    for (let from = 0, n = 0; from < backlog.length; from += size, n++) {
      const start = Math.max(0, from - 20);
      const batch = backlog.slice(start, from + size);
      const lostOnce = (attempt: number): Fate =>
        n === 1 && attempt === 0 ? "answer lost" : "delivered";
      const { body } = await untilAnswered(
        "InspectionService/CreateReadings",
        { readings: batch },
        {},
        lostOnce,
      );
      const statuses = body.results.map((r: { status: string }) => r.status);
      // Sent again after its answer was lost: all of it is there already.
      const already = n === 1 ? batch.length : from - start;
      expect(body.alreadyStored ?? 0).toBe(already);
      expect(statuses.slice(0, already).every((x: string) => x.endsWith("ALREADY_STORED"))).toBe(
        true,
      );
      for (const r of body.results) {
        if (r.status === "READING_STATUS_CREATED") created.push(r.inspectionId);
      }
    }
    expect(new Set(created).size).toBe(created.length);
    // The lost answer's 200 readings were created by the attempt whose answer was lost.
    expect(created).toHaveLength(672 - 200);

    const all: { id: string; date: string }[] = [];
    for (let token = ""; ; ) {
      const page = await callOk(t, "InspectionService/ListInspections", {
        hiveId,
        page: { pageSize: 500, pageToken: token },
      });
      all.push(...page.inspections);
      if (!page.page.nextPageToken) break;
      token = page.page.nextPageToken;
    }
    expect(all).toHaveLength(96 + 672);
    expect(new Set(all.map((i) => i.date)).size).toBe(96 + 672);
    expect(new Set(all.map((i) => i.id)).size).toBe(96 + 672);

    // The feed: one inspection row and one INSPECTION event per reading, nothing twice.
    const { changes } = await pullAll(t);
    const inspections = changes.filter((c) => c.entity === "inspection");
    const events = changes.filter((c) => c.entity === "event");
    expect(new Set(inspections.map((c) => c.entityId)).size).toBe(96 + 672);
    expect(inspections).toHaveLength(96 + 672);
    const refs = events
      .map((c) => JSON.parse(c.payloadJson))
      .filter((p) => p.ref_entity === "inspection")
      .map((p) => p.ref_id);
    expect(refs).toHaveLength(96 + 672);
    expect(new Set(refs)).toEqual(new Set(all.map((i) => i.id)));
  });
});
