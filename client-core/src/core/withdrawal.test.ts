import { describe, expect, it } from "vitest";
import {
  harvestWithdrawal,
  instantMs,
  runningWithdrawals,
  withdrawalAt,
  withdrawalEndsByHive,
  withdrawalRunning,
} from "./withdrawal.ts";

const t = (id: string, hiveId: string, date: string, until?: string) => ({
  id,
  hiveId,
  date,
  withdrawalUntil: until ?? null,
});
const at = (iso: string) => new Date(iso);

describe("withdrawal periods", () => {
  const oxalic = t("ox", "h1", "2026-04-01T09:00:00.000Z", "2026-05-01T09:00:00.000Z");
  const thymol = t("th", "h1", "2026-04-10T09:00:00.000Z", "2026-06-01T00:00:00.000Z");
  const other = t("ot", "h2", "2026-04-20T09:00:00.000Z", "2026-04-25T00:00:00.000Z");
  const none = t("no", "h2", "2026-04-02T09:00:00.000Z");

  it("reads proto Timestamps, RFC 3339 strings and Dates alike", () => {
    const ms = Date.parse("2026-05-01T09:00:00.500Z");
    expect(instantMs({ seconds: BigInt(Math.floor(ms / 1000)), nanos: 500_000_000 })).toBe(ms);
    expect(instantMs("2026-05-01T09:00:00.500Z")).toBe(ms);
    expect(instantMs(new Date(ms))).toBe(ms);
    expect(instantMs(null)).toBeUndefined();
    expect(instantMs("")).toBeUndefined();
  });

  it("a period runs until its end, exclusive; none without an end", () => {
    expect(withdrawalRunning(oxalic, at("2026-05-01T08:59:59.999Z"))).toBe(true);
    expect(withdrawalRunning(oxalic, at("2026-05-01T09:00:00.000Z"))).toBe(false);
    expect(withdrawalRunning(none, at("2026-04-03T00:00:00.000Z"))).toBe(false);
  });

  it("withdrawalAt: the covering treatment that ends last; none before it was given", () => {
    expect(withdrawalAt([oxalic, thymol], at("2026-04-15T00:00:00.000Z"))?.id).toBe("th");
    expect(withdrawalAt([oxalic, thymol], at("2026-04-05T00:00:00.000Z"))?.id).toBe("ox");
    expect(withdrawalAt([oxalic], at("2026-03-31T00:00:00.000Z"))).toBeUndefined();
    expect(withdrawalAt([oxalic, thymol], at("2026-06-01T00:00:00.000Z"))).toBeUndefined();
  });

  it("a harvest is inside a withdrawal only of its own hive, whenever the treatment was entered", () => {
    const harvest = { hiveId: "h2", date: "2026-04-22T10:00:00.000Z" };
    expect(harvestWithdrawal(harvest, [oxalic, thymol])).toBeUndefined();
    expect(harvestWithdrawal(harvest, [oxalic, thymol, other])?.id).toBe("ot");
    expect(harvestWithdrawal({ hiveId: "h2", date: "2026-04-25T00:00:00.000Z" }, [other])).toBe(
      undefined,
    );
  });

  it("lists every running period soonest end first, of the organization or one hive, and the latest end per hive", () => {
    const all = [oxalic, thymol, other, none];
    const now = at("2026-04-21T00:00:00.000Z");
    expect(runningWithdrawals(all, now).map((w) => w.treatment.id)).toEqual(["ot", "ox", "th"]);
    expect(runningWithdrawals(all, now, "h1").map((w) => w.until.toISOString())).toEqual([
      "2026-05-01T09:00:00.000Z",
      "2026-06-01T00:00:00.000Z",
    ]);
    expect(runningWithdrawals(all, at("2026-07-01T00:00:00.000Z"))).toEqual([]);
    const ends = withdrawalEndsByHive(all, now);
    expect([...ends].map(([h, d]) => [h, d.toISOString()])).toEqual([
      ["h2", "2026-04-25T00:00:00.000Z"],
      ["h1", "2026-06-01T00:00:00.000Z"],
    ]);
  });
});
