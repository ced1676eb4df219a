import { describe, expect, it } from "vitest";
import { type Queryable, unreadyReason } from "./db.ts";

const answering = (query: () => Promise<never[]>): Queryable => ({
  query,
  queryRaw: async () => {},
  exec: async () => {},
});

describe("unreadyReason (the readiness probe)", () => {
  it("is undefined while the database answers", async () => {
    expect(
      await unreadyReason(
        answering(async () => []),
        1_000,
      ),
    ).toBeUndefined();
  });

  it("is the database's error when it fails", async () => {
    const err = new Error("connection refused");
    expect(
      await unreadyReason(
        answering(() => Promise.reject(err)),
        1_000,
      ),
    ).toBe(err);
  });

  it("answers even when the database never does", async () => {
    const reason = await unreadyReason(
      answering(() => new Promise(() => {})),
      50,
    );
    expect(String(reason)).toContain("did not answer within 50 ms");
  });
});
