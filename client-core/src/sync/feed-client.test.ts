import { create, toBinary } from "@bufbuild/protobuf";
import { PullRequestSchema, SyncService } from "@hivekeep/proto";
import { describe, expect, it } from "vitest";
import { encodePullRequest, syncServiceName } from "./feed-client.ts";

describe("feed client", () => {
  it.each([
    ["", 0, false],
    ["", 5000, true],
    ["0000000000000042", 500, true],
    ["ö-cursor", -1, false],
    ["x".repeat(300), 2_147_483_647, true],
  ])(
    "encodes PullRequest{%j, %i, photoRefs %s} as protobuf-es does",
    (cursor, limit, photoRefs) => {
      expect(encodePullRequest(cursor, limit, photoRefs)).toEqual(
        toBinary(PullRequestSchema, create(PullRequestSchema, { cursor, limit, photoRefs })),
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
    ]);
  });
});
