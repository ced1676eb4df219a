import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import { PullResponseSchema, type SyncService } from "@hivekeep/proto";
import { feedHead, readFeedRaw } from "../store/feed.ts";
import { callerOf } from "./context.ts";
import type { Deps } from "./deps.ts";
import { invalidArgument } from "./errors.ts";
import { feedRowToProto } from "./mapping.ts";
import { encodedChanges, isBinaryRequest } from "./pull-encoding.ts";
import { push } from "./push.ts";
import { subscribe } from "./subscribe.ts";

export const defaultPullLimit = 500;
export const maxPullLimit = 5000;

export function syncService(deps: Deps): Partial<ServiceImpl<typeof SyncService>> {
  const { db } = deps;
  return {
    push: (req, ctx) => push(deps, req, ctx),
    subscribe: (req, ctx) => subscribe(deps, req, ctx),

    async pull(req, ctx) {
      const caller = callerOf(ctx);
      if (req.limit < 0) throw invalidArgument("limit must not be negative");
      const limit = req.limit === 0 ? defaultPullLimit : Math.min(req.limit, maxPullLimit);
      if (req.cursor !== "" && !/^\d{1,15}$/.test(req.cursor)) {
        throw invalidArgument(
          `cursor ${JSON.stringify(req.cursor)} is malformed; pass "" or nextCursor`,
        );
      }
      const after = req.cursor === "" ? 0 : Number(req.cursor);
      const head = (await feedHead(db, caller.organizationId)) ?? 0;
      if (after > head) {
        throw invalidArgument(
          `cursor ${req.cursor} is unknown to this server (the feed ends at ${head}); pull again from ""`,
        );
      }
      // One row more than asked tells whether more follow.
      const rows = await readFeedRaw(db, caller.organizationId, caller.userId, after, limit + 1);
      const page = rows.slice(0, limit);
      const hasMore = rows.length > limit;
      // Without more rows, every row up to `head` (committed before we read it)
      // has been scanned, so the cursor may pass rows this caller cannot see.
      const lastSeq = page.at(-1)?.seq ?? after;
      const response = create(PullResponseSchema, {
        nextCursor: String(hasMore ? lastSeq : Math.max(lastSeq, head)),
        hasMore,
        serverTime: timestampFromMs(deps.clock.nowMs()),
      });
      // Binary: the changes' bytes are written by hand (pull-encoding.ts).
      if (isBinaryRequest(ctx.requestHeader)) response.$unknown = encodedChanges(page);
      else response.changes = page.map(feedRowToProto);
      return response;
    },
  };
}
