import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { isConnectionLoss, openPostgres } from "./postgres.ts";

describe("isConnectionLoss", () => {
  it.each([
    "CONNECTION_CLOSED",
    "CONNECTION_DESTROYED",
    "CONNECTION_ENDED",
    "CONNECT_TIMEOUT",
    "ECONNREFUSED",
    "ECONNRESET",
    "57P01",
    "57P03",
    "08006",
    "53300",
  ])("%s: the database is away", (code) => {
    expect(isConnectionLoss(Object.assign(new Error("x"), { code }))).toBe(true);
  });

  it.each(["23505", "22P02", "40001", "P0001", undefined])(
    "%s: a statement's own error, not an outage",
    (code) => {
      expect(isConnectionLoss(Object.assign(new Error("x"), { code }))).toBe(false);
    },
  );
});

describe("openPostgres without a database", () => {
  it("fails at once when nothing listens, naming the refusal", async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, "127.0.0.1", () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    await expect(openPostgres(`postgres://nobody@127.0.0.1:${port}/none`)).rejects.toMatchObject({
      code: "ECONNREFUSED",
    });
  });
});
