import { create, toBinary } from "@bufbuild/protobuf";
import { ChangeSchema, PullResponseSchema } from "@hivekeep/proto";
import { decodePullResponse } from "./src/sync/wire.ts";

const pl =
  '{"hive_id":"0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c","apiary_id":"0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b","queen_id":"","date":"2026-11-23T06:00:00.000Z","note":"Strong flight, added a super","created_at":"2026-11-23T06:00:00.000Z","weight_kg":33.5,"temp_hive":34.1,"temp_outside":18.2,"humidity_hive":61,"humidity_outside":72,"weather":"sunny","queen_seen":true,"eggs_seen":true,"covered_larva":true,"frames":20,"brood_frames":7,"stores":1,"temperament":2,"calmness":3,"queen_cells":0,"varroa":"2 mites/day","super_added":false}';
const changes = Array.from({ length: 5000 }, (_, i) =>
  create(ChangeSchema, {
    entity: "inspection",
    entityId: crypto.randomUUID(),
    scopeId: "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b",
    op: 1,
    payloadJson: pl,
    hlc: `001763877600000:${String(i).padStart(5, "0")}:bench-device`,
    authorId: "00000000-0000-7000-8000-000000000002",
  }),
);
const bytes = toBinary(
  PullResponseSchema,
  create(PullResponseSchema, { changes, nextCursor: "5000", hasMore: true }),
);
for (let r = 0; r < 15; r++) {
  const t = performance.now();
  for (let i = 0; i < 20; i++) decodePullResponse(bytes);
  console.log("decode ms/page", ((performance.now() - t) / 20).toFixed(2));
}
