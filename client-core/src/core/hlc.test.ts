import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Clock, Hlc, HlcParts } from "./hlc.ts";
import {
  compareHlc,
  createClock,
  formatHlc,
  hlcMs,
  isHlc,
  isTooFarAhead,
  maxHlcCounter,
  maxHlcMs,
  parseHlc,
  receive,
  tick,
} from "./hlc.ts";

const nodeArb = fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/);
const partsArb: fc.Arbitrary<HlcParts> = fc.record({
  ms: fc.integer({ min: 0, max: maxHlcMs }),
  counter: fc.integer({ min: 0, max: maxHlcCounter }),
  node: nodeArb,
});
/** Wall times near each other, so clocks collide and the counter is exercised. */
const nowArb = fc.integer({ min: 1_763_772_000_000, max: 1_763_772_000_050 });

const numericOrder = (a: HlcParts, b: HlcParts): number =>
  a.ms - b.ms || a.counter - b.counter || (a.node < b.node ? -1 : a.node > b.node ? 1 : 0);

describe("formatHlc / parseHlc", () => {
  it("pads ms to 15 and the counter to 5 digits", () => {
    expect(formatHlc({ ms: 1_763_772_000_000, counter: 7, node: "dev-a" })).toBe(
      "001763772000000:00007:dev-a",
    );
  });

  it("parses what it formats", () => {
    fc.assert(
      fc.property(partsArb, (parts) => {
        expect(parseHlc(formatHlc(parts))).toEqual({ value: parts });
      }),
    );
  });

  it.each([
    ["", "shape"],
    ["001763772000000:00000", "shape"],
    ["001763772000000:00000:dev:a", "shape"],
    ["1763772000000:00000:dev-a", "ms"],
    ["0001763772000000:00000:dev-a", "ms"],
    ["-01763772000000:00000:dev-a", "ms"],
    ["001763772000000:100000:dev-a", "counter"],
    ["001763772000000:0000a:dev-a", "counter"],
    ["001763772000000:00000:", "node"],
    ["001763772000000:00000:dev a", "node"],
    ["001763772000000:00000:dév", "node"],
    [`001763772000000:00000:${"n".repeat(65)}`, "node"],
  ])("rejects %j (bad %s)", (s) => {
    expect(parseHlc(s)).toHaveProperty("error");
    expect(isHlc(s)).toBe(false);
  });

  it("accepts a 64-character node id", () => {
    expect(isHlc(`001763772000000:00000:${"n".repeat(64)}`)).toBe(true);
  });

  it("refuses to format parts outside the format", () => {
    expect(() => formatHlc({ ms: -1, counter: 0, node: "a" })).toThrow(RangeError);
    expect(() => formatHlc({ ms: maxHlcMs + 1, counter: 0, node: "a" })).toThrow(RangeError);
    expect(() => formatHlc({ ms: 1.5, counter: 0, node: "a" })).toThrow(RangeError);
    expect(() => formatHlc({ ms: 0, counter: maxHlcCounter + 1, node: "a" })).toThrow(RangeError);
    expect(() => formatHlc({ ms: 0, counter: 0, node: "a:b" })).toThrow(RangeError);
  });

  it("string order is (ms, counter, node) order", () => {
    fc.assert(
      fc.property(partsArb, partsArb, (a, b) => {
        const ha = formatHlc(a);
        const hb = formatHlc(b);
        expect(compareHlc(ha, hb)).toBe(Math.sign(numericOrder(a, b)));
        expect(ha < hb).toBe(numericOrder(a, b) < 0);
      }),
    );
  });

  it("hlcMs reads the wall-clock part", () => {
    fc.assert(fc.property(partsArb, (p) => hlcMs(formatHlc(p)) === p.ms));
  });
});

describe("tick", () => {
  it("follows the wall clock when it is ahead, with counter 0", () => {
    const { clock, hlc } = tick(createClock("dev-a"), 1_763_772_000_000);
    expect(hlc).toBe("001763772000000:00000:dev-a");
    expect(clock).toEqual({ ms: 1_763_772_000_000, counter: 0, node: "dev-a" });
  });

  it("counts up within one millisecond", () => {
    const first = tick(createClock("dev-a"), 1000);
    const second = tick(first.clock, 1000);
    expect(second.hlc).toBe("000000000001000:00001:dev-a");
  });

  it("stays monotonic when the wall clock goes backwards", () => {
    const first = tick(createClock("dev-a"), 5000);
    const second = tick(first.clock, 4000);
    expect(second.hlc > first.hlc).toBe(true);
    expect(hlcMs(second.hlc)).toBe(5000);
  });

  it("carries a full counter into the next millisecond", () => {
    const full: Clock = { ms: 5000, counter: maxHlcCounter, node: "dev-a" };
    const { hlc } = tick(full, 5000);
    expect(hlc).toBe("000000000005001:00000:dev-a");
    expect(hlc > formatHlc(full)).toBe(true);
  });

  it("floors a fractional wall clock and refuses a non-finite one", () => {
    expect(tick(createClock("a"), 1000.9).hlc).toBe("000000000001000:00000:a");
    expect(() => tick(createClock("a"), Number.NaN)).toThrow(RangeError);
  });

  it("issues strictly increasing stamps for any sequence of wall times", () => {
    fc.assert(
      fc.property(fc.array(nowArb, { maxLength: 50 }), (times) => {
        let clock = createClock("dev-a");
        let last = "";
        for (const now of times) {
          const next = tick(clock, now);
          expect(next.hlc > last).toBe(true);
          expect(hlcMs(next.hlc)).toBeGreaterThanOrEqual(now);
          last = next.hlc;
          clock = next.clock;
        }
      }),
    );
  });

  it("keeps its state as plain JSON", () => {
    const { clock } = tick(createClock("dev-a"), 1000);
    const restored = JSON.parse(JSON.stringify(clock)) as Clock;
    expect(tick(restored, 1000)).toEqual(tick(clock, 1000));
  });
});

describe("receive", () => {
  it("keeps the local node id", () => {
    const remote = formatHlc({ ms: 9000, counter: 3, node: "server" });
    expect(receive(createClock("dev-a"), remote, 1000)).toEqual({
      ms: 9000,
      counter: 4,
      node: "dev-a",
    });
  });

  it("takes the greater counter when local, remote and wall time share a millisecond", () => {
    const clock: Clock = { ms: 9000, counter: 2, node: "dev-a" };
    expect(receive(clock, formatHlc({ ms: 9000, counter: 7, node: "b" }), 9000).counter).toBe(8);
    expect(receive(clock, formatHlc({ ms: 9000, counter: 1, node: "b" }), 9000).counter).toBe(3);
  });

  it("resets the counter when the wall clock is ahead of both", () => {
    const clock: Clock = { ms: 9000, counter: 2, node: "dev-a" };
    const remote = formatHlc({ ms: 9500, counter: 7, node: "b" });
    expect(receive(clock, remote, 10_000)).toEqual({ ms: 10_000, counter: 0, node: "dev-a" });
  });

  it("makes every later tick greater than the remote stamp, whatever the clock skew", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), nowArb, partsArb), { maxLength: 30 }),
        (events) => {
          let clock = createClock("local");
          let greatest = "";
          for (const [isReceive, now, remoteParts] of events) {
            if (isReceive) {
              const remote = formatHlc({ ...remoteParts, ms: remoteParts.ms % 1e13 });
              clock = receive(clock, remote, now);
              if (remote > greatest) greatest = remote;
            } else {
              const next = tick(clock, now);
              expect(next.hlc > greatest).toBe(true);
              greatest = next.hlc;
              clock = next.clock;
            }
            expect(clock.node).toBe("local");
          }
        },
      ),
    );
  });
});

describe("isTooFarAhead", () => {
  const at = (ms: number): Hlc => formatHlc({ ms, counter: 0, node: "dev-a" });

  it("refuses stamps more than 60 s ahead of the server clock, and only those", () => {
    const now = 1_763_772_000_000;
    expect(isTooFarAhead(at(now + 60_000), now)).toBe(false);
    expect(isTooFarAhead(at(now + 60_001), now)).toBe(true);
    expect(isTooFarAhead(at(now - 3_600_000), now)).toBe(false);
    expect(isTooFarAhead(at(now + 2000), now, 1000)).toBe(true);
  });
});
