/**
 * The device clock. Two clients of one replica (two tabs of a browser profile) restore their
 * clocks from the same persisted state and stamp independently; their stamps must never
 * coincide: equal stamps mean "the same write" to every merge (an OR-set tag is the stamp of
 * the change that added the element, so two photos added in two tabs under one stamp would
 * share a tag, and removing one would remove both).
 */
import { describe, expect, it } from "vitest";
import { createClock, formatHlc, hlcMs, isHlc, tick } from "../core/hlc.ts";
import { DeviceClock } from "./device-clock.ts";

describe("DeviceClock", () => {
  const wall = () => Date.parse("2026-05-01T10:00:00Z");

  it("never issues a stamp another client restored from the same state issues", () => {
    const node = "d0123456789abcdef";
    const persisted = { node, clock: tick(createClock(node), wall()).clock };
    const tabOne = new DeviceClock(persisted, wall);
    const tabTwo = new DeviceClock(persisted, wall);
    const one = [tabOne.stamp(), tabOne.stamp()];
    const two = [tabTwo.stamp(), tabTwo.stamp()];
    for (const s of [...one, ...two]) expect(isHlc(s)).toBe(true);
    expect(new Set([...one, ...two]).size).toBe(4);
    // Still after everything the persisted clock had issued (time and counter).
    const issued = formatHlc(persisted.clock).slice(0, 21);
    for (const s of [...one, ...two]) expect(s.slice(0, 21) > issued).toBe(true);
    expect(tabOne.node).not.toBe(tabTwo.node);
    expect(tabOne.node.startsWith(persisted.node)).toBe(true);
  });

  it("stamps after the persisted clock and with the wall clock corrected by the offset", () => {
    const persisted = { node: "dnode", clock: { ms: wall() + 5, counter: 7, node: "dnode" } };
    const clock = new DeviceClock(persisted, wall);
    const first = clock.stamp();
    expect(hlcMs(first)).toBe(wall() + 5);
    clock.observeServerTime(wall() + 60_000);
    expect(clock.nowMs()).toBe(wall() + 60_000);
    expect(hlcMs(clock.stamp())).toBe(wall() + 60_000);
  });
});
