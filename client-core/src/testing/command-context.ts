/**
 * Helpers for the command tests (core/commands/*.test.ts, core/invariants.test.ts): a
 * deterministic CommandContext and ways to catch the DomainError a command throws. Test-only,
 * so it lives outside src/core; no Node, DOM or vitest.
 */
import type { Change } from "../core/change.ts";
import type { CommandContext } from "../core/commands/context.ts";
import { DomainError } from "../core/domain-error.ts";
import { formatHlc } from "../core/hlc.ts";

export interface FakeContextOptions {
  /** The operation's time; also the millisecond of every stamp. */
  readonly now?: Date;
  readonly authorId?: string;
}

/**
 * A CommandContext at a fixed `now` (default 2026-05-20T10:00:00.000Z) for
 * `authorId` (default "user-1"): ids "id-1", "id-2", … and HLCs at now's
 * millisecond on node "test" with a counter that rises from 0.
 */
export function fakeContext({
  now = new Date("2026-05-20T10:00:00.000Z"),
  authorId = "user-1",
}: FakeContextOptions = {}): CommandContext {
  let ids = 0;
  let counter = 0;
  return {
    now,
    authorId,
    newId: () => `id-${++ids}`,
    stamp: () => formatHlc({ ms: now.getTime(), counter: counter++, node: "test" }),
  };
}

/** The DomainError `fn` throws; any other error is rethrown, none is a failure. */
export function errorOf(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  throw new Error("expected a DomainError");
}

/** "<code>:<field>" of the DomainError `fn` throws, undefined when it throws none. */
export function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return `${e.code}:${e.field ?? ""}`;
    throw e;
  }
  return undefined;
}

/** The changes to one entity, in order. */
export const byEntity = (changes: Change[], entity: string): Change[] =>
  changes.filter((c) => c.entity === entity);
