/**
 * One leader per replica, over a fake LockManager that grants one exclusive lock at a time in
 * request order (as Web Locks does); the browsers' real one is in e2e/device-leader.test.ts.
 */
import { describe, expect, it } from "vitest";
import { seekLeadership } from "./leadership.ts";

/** Exclusive locks by name, granted in request order; an aborted waiting request rejects. */
function fakeLocks(): LockManager {
  const held = new Map<string, Promise<unknown>>();
  const request = (
    name: string,
    options: LockOptions,
    callback: (lock: Lock | null) => Promise<unknown>,
  ): Promise<unknown> => {
    const before = held.get(name) ?? Promise.resolve();
    const signal = options.signal;
    const run = before.then(() => {
      if (signal?.aborted) throw new DOMException("aborted", "AbortError");
      return callback({ name, mode: "exclusive" } as Lock);
    });
    held.set(
      name,
      run.catch(() => {}),
    );
    return run;
  };
  return { request, query: async () => ({}) } as unknown as LockManager;
}

const turns = async (k = 10) => {
  for (let i = 0; i < k; i++) await Promise.resolve();
};

describe("seekLeadership", () => {
  it("leads at once without Web Locks", () => {
    let led = 0;
    seekLeadership(undefined, "x", () => led++);
    expect(led).toBe(1);
  });

  it("lets one client lead; the next leads once the first resigns", async () => {
    const locks = fakeLocks();
    const led: string[] = [];
    const resignA = seekLeadership(locks, "replica", () => led.push("a"));
    seekLeadership(locks, "replica", () => led.push("b"));
    await turns();
    expect(led).toEqual(["a"]);
    resignA();
    await turns();
    expect(led).toEqual(["a", "b"]);
  });

  it("never leads after resigning while it waited", async () => {
    const locks = fakeLocks();
    const led: string[] = [];
    const resignA = seekLeadership(locks, "replica", () => led.push("a"));
    const resignB = seekLeadership(locks, "replica", () => led.push("b"));
    seekLeadership(locks, "replica", () => led.push("c"));
    await turns();
    resignB();
    resignA();
    await turns();
    expect(led).toEqual(["a", "c"]);
  });
});
