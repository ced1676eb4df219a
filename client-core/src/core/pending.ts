/**
 * The outbox order (DESIGN.md §4): a device shows each row as its confirmed state (what it pulled
 * and had acknowledged) with its own changes still pending (the outbox, and the quarantine)
 * merged on top in the order they were made (`seq`). The device rebuilds rows with it after
 * re-stamping and quarantining (device/replica-sync.ts); the sync model's view is the same
 * (testing/replica-model.ts).
 */
import type { Change } from "./change.ts";
import { mergeChange, type ScopedRowState } from "./merge-change.ts";

export interface PendingChange {
  /** The entry's place in the outbox (optional, as the device's store assigns it). */
  readonly seq?: number | undefined;
  readonly change: Change;
}

export function withPending(
  confirmed: ScopedRowState | undefined,
  pending: readonly PendingChange[],
): ScopedRowState | undefined {
  let state = confirmed;
  for (const { change } of [...pending].sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0))) {
    state = mergeChange(state, change).row ?? state;
  }
  return state;
}
