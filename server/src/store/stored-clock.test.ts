import type { Hlc } from "@hivekeep/client-core/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { packClock, stampSql, unpackClock } from "./stored-clock.ts";

describe("stored clock", () => {
  it("groups columns by stamp and unpacks to the same clock", () => {
    const a = "000001767225600000:00001:dev-a" as Hlc;
    const b = "000001767225700000:00002:dev-b" as Hlc;
    expect(packClock({ name: a, lat: b, lng: a, _deleted: b })).toEqual({
      [a]: ["name", "lng"],
      [b]: ["lat", "_deleted"],
    });
    expect(packClock({ name: a, lat: a, _deleted: a })).toEqual({
      [a]: ["name", "lat", "_deleted"],
    });
    expect(packClock({})).toEqual({});
    expect(unpackClock({})).toEqual({});
    expect(unpackClock(null)).toEqual({});
    expect(() => unpackClock({ [a]: "name" })).toThrow(TypeError);
  });

  it("round-trips any clock, also through JSON", () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom("name", "lat", "lng", "note", "_deleted"),
          fc.constantFrom(
            ..."0001:00001:a 0002:00001:a 0002:00002:b".split(" ").map((h) => h as Hlc),
          ),
        ),
        (clock) => {
          expect(unpackClock(JSON.parse(JSON.stringify(packClock(clock))))).toEqual(clock);
        },
      ),
    );
  });

  it("only takes column names into SQL", () => {
    expect(stampSql("type")).toContain("? 'type'");
    expect(() => stampSql("type'; drop table x; --")).toThrow();
  });
});
