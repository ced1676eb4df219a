import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  defaultPullLimit,
  formatCursor,
  isEntityId,
  isPhotoRef,
  maxPullLimit,
  parseCursor,
  photoRef,
  quote,
  readingsCutoffMs,
  requestedLimit,
} from "@hivekeep/client-core/core";
import { invalidArgument } from "@hivekeep/client-core/ops";
import { nextPageHeader } from "@hivekeep/client-core/protocol";
import { GetPhotoResponseSchema, PullResponseSchema, type SyncService } from "@hivekeep/proto";
import { feedHead, readFeedPage, readWirePage } from "../store/feed.ts";
import { storedPhotos } from "../store/photos.ts";
import { callerOf } from "./context.ts";
import type { Deps } from "./deps.ts";
import { feedRowToProto } from "./mapping.ts";
import { sha256Base64url } from "./photo-hash.ts";
import { encodedChanges, isBinaryRequest } from "./pull-encoding.ts";
import { push } from "./push.ts";
import { sharedPull } from "./shared-pulls.ts";
import { subscribe } from "./subscribe.ts";

export function syncService(deps: Deps): Partial<ServiceImpl<typeof SyncService>> {
  const { db } = deps;
  return {
    push: (req, ctx) => push(deps, req, ctx),
    subscribe: (req, ctx) => subscribe(deps, req, ctx),

    async pull(req, ctx) {
      const caller = callerOf(ctx);
      const limit = requestedLimit(req.limit, defaultPullLimit, maxPullLimit, "limit");
      const after = parseCursor(req.cursor);
      const head = (await feedHead(db, caller.organizationId)) ?? 0;
      if (after > head) {
        throw invalidArgument(
          `cursor ${req.cursor} is unknown to this server (the feed ends at ${head}); pull again from ""`,
        );
      }
      // Binary: the changes' bytes are framed by hand (pull-encoding.ts).
      const binary = isBinaryRequest(ctx.requestHeader);
      const read = binary ? readWirePage : readFeedPage;
      // Identical Pulls on an unchanged feed share one read (shared-pulls.ts).
      const { organizationId, userId } = caller;
      const { photoRefs } = req;
      if (req.readingDays < 0) {
        throw invalidArgument(`readingDays ${req.readingDays} is negative; 0 pulls every reading`);
      }
      // The readings window (readings-window.ts): one cutoff all day, so a day's Pulls share.
      const nowMs = deps.clock.nowMs();
      const cutoffMs = req.readingDays > 0 ? readingsCutoffMs(nowMs, req.readingDays) : undefined;
      const question = { binary, photoRefs, cutoffMs, organizationId, userId, after, limit, head };
      const page = await sharedPull(db, question, async () =>
        read(db, organizationId, userId, after, limit, { photoRefs, cutoffMs }),
      );
      const { hasMore } = page;
      // Without more rows, every row up to `head` (committed before we read it)
      // has been scanned, so the cursor may pass rows this caller cannot see.
      const lastSeq = page.lastSeq ?? after;
      const nextCursor = formatCursor(hasMore ? lastSeq : Math.max(lastSeq, head));
      // The next page's cursor ahead of the body, so a device can ask for that
      // page while this one is still on its way (pages() in client-core/sync).
      if (hasMore) ctx.responseHeader.set(nextPageHeader, nextCursor);
      const response = create(PullResponseSchema, {
        nextCursor,
        hasMore,
        serverTime: timestampFromMs(nowMs),
        ...(cutoffMs === undefined ? {} : { readingsCutoff: timestampFromMs(cutoffMs) }),
        // Where the feed ends, so a device can tell how much of a first sync is left.
        headCursor: formatCursor(head),
      });
      if ("rows" in page) response.changes = page.rows.map(feedRowToProto);
      else response.$unknown = encodedChanges(page);
      return response;
    },

    async getPhoto(req, ctx) {
      const { organizationId, userId } = callerOf(ctx);
      if (!isEntityId(req.inspectionId)) {
        throw invalidArgument(`inspectionId ${quote(req.inspectionId)} is not an id`);
      }
      if (!isPhotoRef(req.ref)) {
        throw invalidArgument(
          `ref ${quote(req.ref)} is not a photo reference ("hkphoto:" and 43 base64url characters)`,
        );
      }
      const photos = await storedPhotos(db, organizationId, userId, req.inspectionId);
      if (photos === undefined) {
        throw new ConnectError(`inspection ${req.inspectionId} not found`, Code.NotFound);
      }
      const dataUrl = photos.find((photo) => photoRef(photo, sha256Base64url) === req.ref);
      if (dataUrl === undefined) {
        throw new ConnectError(
          `inspection ${req.inspectionId} holds no photo ${req.ref} (removed since?)`,
          Code.NotFound,
        );
      }
      return create(GetPhotoResponseSchema, { dataUrl });
    },
  };
}
