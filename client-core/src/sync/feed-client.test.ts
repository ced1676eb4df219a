import { create, toBinary } from "@bufbuild/protobuf";
import { PullRequestSchema, SyncService } from "@hivekeep/proto";
import { describe, expect, it } from "vitest";
import { encodePullRequest, syncServiceName } from "./feed-client.ts";

describe("feed client", () => {
  it.each([
    ["", 0, false, 0],
    ["", 5000, true, 30],
    ["0000000000000042", 500, true, 0],
    ["ö-cursor", -1, false, -2],
    ["x".repeat(300), 2_147_483_647, true, 2_147_483_647],
  ])(
    "encodes PullRequest{%j, %i, photoRefs %s, readingDays %i} as protobuf-es does",
    (cursor, limit, photoRefs, readingDays) => {
      expect(encodePullRequest(cursor, limit, photoRefs, readingDays)).toEqual(
        toBinary(
          PullRequestSchema,
          create(PullRequestSchema, { cursor, limit, photoRefs, readingDays }),
        ),
      );
    },
  );

  it("names the service and its methods as sync.proto does", () => {
    expect(syncServiceName).toBe(SyncService.typeName);
    expect(SyncService.method.pull.name).toBe("Pull");
    expect(SyncService.method.push.name).toBe("Push");
    // A PullRequest field the hand-written encoder does not know fails here.
    expect(PullRequestSchema.fields.map((f) => [f.name, f.number])).toEqual([
      ["cursor", 1],
      ["limit", 2],
      ["photo_refs", 3],
      ["reading_days", 4],
    ]);
  });
});
