/**
 * Seeds many rows fast for tests of the List* limits (§8: 50 per page by
 * default, at most 500): the real domain commands produce the changes, and
 * they go through the one write path in a single transaction instead of one
 * RPC per row.
 */
import { randomUUID } from "node:crypto";
import { type Change, type CommandContext, formatHlc } from "@hivekeep/client-core/core";
import { localOrganizationId, localUserId } from "@hivekeep/server";
import { writeTenant } from "../../server/src/store/tenant-write.ts";
import type { TestServer } from "./server.ts";
import type { TestTarget } from "./target.ts";

/** A command context for the single-user tenant, stamping as node "seed". */
export function seedContext(): CommandContext {
  let counter = 0;
  return {
    now: new Date(),
    authorId: localUserId,
    newId: () => randomUUID(),
    stamp: () => formatHlc({ ms: Date.now(), counter: ++counter % 100_000, node: "seed" }),
  };
}

/**
 * Applies the changes in one write transaction of the single-user tenant; on a test target,
 * whatever it seeds with (the device: merged into its replica as if pulled from the server).
 */
export async function seedChanges(
  t: TestServer | Pick<TestTarget, "seed">,
  changes: readonly Change[],
): Promise<void> {
  if ("seed" in t) return t.seed(changes);
  await writeTenant(t.server.db, localOrganizationId, (w) => w.apply(changes));
}
