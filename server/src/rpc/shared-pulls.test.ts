/** Identical Pulls share one read only on the same feed head, and only for `keptMs` after it. */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Queryable } from "../db/db.ts";
import { keptMs, type PullQuestion, sharedPull } from "./shared-pulls.ts";

const question: PullQuestion = {
  binary: true,
  photoRefs: false,
  cutoffMs: undefined,
  organizationId: "org",
  userId: "u1",
  after: 5,
  limit: 500,
  head: 6,
};

describe("sharedPull", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("hands an identical Pull on the same head the page read once, running or just done", async () => {
    const db = {} as Queryable;
    let reads = 0;
    const read = async () => `page ${++reads}`;
    const pages = await Promise.all([1, 2, 3].map(() => sharedPull(db, question, read)));
    expect(pages).toEqual(["page 1", "page 1", "page 1"]);
    expect(await sharedPull(db, question, read)).toBe("page 1");
    expect(reads).toBe(1);
    // Once kept long enough, it is forgotten.
    await vi.advanceTimersByTimeAsync(keptMs);
    expect(await sharedPull(db, question, read)).toBe("page 2");
  });

  it("reads again for another head, user, cursor, limit or encoding, or another database", async () => {
    const db = {} as Queryable;
    let reads = 0;
    const read = async () => ++reads;
    await sharedPull(db, question, read);
    for (const other of [
      { head: 7 },
      { userId: "u2" },
      { after: 4 },
      { limit: 100 },
      { binary: false },
      { photoRefs: true },
      { organizationId: "other" },
    ]) {
      await sharedPull(db, { ...question, ...other }, read);
    }
    await sharedPull({} as Queryable, question, read);
    expect(reads).toBe(9);
  });

  it("forgets a failed read at once", async () => {
    const db = {} as Queryable;
    await expect(sharedPull(db, question, () => Promise.reject(new Error("gone")))).rejects.toThrow(
      "gone",
    );
    expect(await sharedPull(db, question, async () => "page")).toBe("page");
  });
});
