import { describe, expect, it } from "vitest";
import type { Db, Queryable } from "../db/db.ts";
import { writeTenant } from "./tenant-write.ts";

/** A database whose connection is lost: every statement of a transaction fails. */
function lostDb(): Db {
  const lost = () => Promise.reject(new Error("write CONNECTION_CLOSED"));
  const tx: Queryable = { query: lost, queryRaw: lost, exec: lost } as unknown as Queryable;
  return {
    kind: "postgres",
    ...tx,
    transaction: (fn) => fn(tx),
    listen: lost,
    notify: lost,
    close: async () => {},
  } as Db;
}

describe("writeTenant", () => {
  it("fails with the lock's error when the connection is lost, leaving a check read ahead handled", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const db = lostDb();
      const written = writeTenant(db, "org", async (w) => {
        // As Push does: the facts' query goes out before apply, which takes the lock's answer.
        const check = w.tx.query("select facts").then(() => () => []);
        return w.apply([], { check });
      });
      await expect(written).rejects.toThrow("CONNECTION_CLOSED");
      // Unhandled rejections are reported after the microtask queue drains.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});
