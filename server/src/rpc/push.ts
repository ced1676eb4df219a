/**
 * SyncService.Push: a device's batch of changes, validated and applied in one
 * transaction through the one write path. Any invalid change fails the whole
 * call (invalid_argument, or permission_denied when any rejection is about
 * permission) with a PushRejection detail listing every bad change's index,
 * code and reason, so the device can set exactly those aside. Nothing of a
 * failed batch is written. A retried batch (lost response) changes nothing.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import {
  batchChecker,
  type Change,
  type Hlc,
  maxPushChanges,
  parseWireChange,
  type Rejection,
} from "@hivekeep/client-core/core";
import {
  ConflictSchema,
  PushRejectionSchema,
  type PushRequest,
  type PushResponse,
  PushResponseSchema,
} from "@hivekeep/proto";
import { BatchRejectedError, type Check } from "../store/apply-changes.ts";
import { loadPushFacts } from "../store/push-facts.ts";
import { writeTenant } from "../store/tenant-write.ts";
import { callerOf } from "./context.ts";
import type { Deps } from "./deps.ts";

export async function push(
  deps: Deps,
  req: PushRequest,
  ctx: HandlerContext,
): Promise<PushResponse> {
  const caller = callerOf(ctx);
  // A read-only session is refused before anything is looked up.
  if (caller.demo) throw new ConnectError("a demo session cannot write", Code.PermissionDenied);
  if (req.changes.length > maxPushChanges) {
    throw new ConnectError(
      `a push carries at most ${maxPushChanges} changes (got ${req.changes.length}); push the rest in another call`,
      Code.InvalidArgument,
    );
  }

  const changes: Change[] = [];
  const rejections: Rejection[] = [];
  for (const [index, wire] of req.changes.entries()) {
    const parsed = parseWireChange(wire, caller.userId, index);
    if ("error" in parsed) rejections.push(parsed.error);
    else changes.push(parsed.value);
  }
  // Indexes of the parsed changes in the pushed batch.
  const unparsed = new Set(rejections.map((r) => r.index));
  const indexes = req.changes.flatMap((_, i) => (unparsed.has(i) ? [] : [i]));

  const nowMs = deps.clock.nowMs();
  try {
    const outcome = await writeTenant(
      deps.db,
      caller.organizationId,
      async (w) => {
        // The facts' query goes out together with the target rows' (see ApplyOptions).
        const check = loadPushFacts(w.tx, caller.organizationId, changes).then((facts): Check => {
          const checkNext = batchChecker({
            nowMs,
            caller,
            exists: (entity, id) => facts.exists(entity, id),
          });
          return (change, i, existing) => checkNext(change, indexes[i] ?? i, existing);
        });
        const applied = await w.apply(changes, { check });
        // Changes that did not even parse fail the batch too: roll it back. (The
        // others were still checked, so the device learns every problem at once.)
        if (rejections.length > 0) throw new BatchRejectedError([]);
        return applied;
      },
      { clock: deps.clock, newId: deps.newId },
    );
    // Later server stamps must exceed every accepted device stamp.
    for (const c of changes) deps.clock.observe(c.hlc as Hlc);
    return create(PushResponseSchema, {
      conflicts: outcome.conflicts.map((c) =>
        create(ConflictSchema, { ...c, columns: [...c.columns] }),
      ),
      serverTime: timestampFromMs(deps.clock.nowMs()),
    });
  } catch (err) {
    if (!(err instanceof BatchRejectedError)) throw err;
    throw rejectionError([...rejections, ...err.rejections].sort((a, b) => a.index - b.index));
  }
}

function rejectionError(rejections: readonly Rejection[]): ConnectError {
  const denied = rejections.some((r) => r.code === "permission_denied");
  const shown = rejections
    .slice(0, 5)
    .map((r) => `#${r.index} ${r.code}: ${r.reason}`)
    .join("; ");
  const more = rejections.length > 5 ? `; and ${rejections.length - 5} more` : "";
  return new ConnectError(
    `${rejections.length} change${rejections.length === 1 ? "" : "s"} rejected, nothing written: ${shown}${more}`,
    denied ? Code.PermissionDenied : Code.InvalidArgument,
    undefined,
    [{ desc: PushRejectionSchema, value: { rejections: rejections.map((r) => ({ ...r })) } }],
  );
}
