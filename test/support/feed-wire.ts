/**
 * A feed row's Change without its payload as protobuf-es writes it: what
 * `changes.change_head` must hold (base64) for the row's plain columns, by a
 * writer independent of the one that stored it (client-core protocol/wire.ts).
 */
import { create, toBinary } from "@bufbuild/protobuf";
import { ChangeSchema } from "@hivekeep/proto";
import type { HeadColumns } from "../../server/src/store/feed.ts";

export const protoChangeHead = (r: HeadColumns): Uint8Array =>
  toBinary(
    ChangeSchema,
    create(ChangeSchema, {
      entity: r.entity,
      entityId: r.entity_id,
      scopeId: r.scope_id,
      op: r.op,
      hlc: r.hlc,
      authorId: r.author_id,
    }),
  );
