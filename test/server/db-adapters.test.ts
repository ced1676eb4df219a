/** The two database adapters agree on how values come back. */
import { UnavailableError } from "@hivekeep/client-core/ops";
import { type Db, openPglite, openPostgres } from "@hivekeep/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createScratchDatabase,
  databaseKinds,
  type ScratchDatabase,
} from "../support/databases.ts";

describe.each(databaseKinds)("the %s adapter", (kind) => {
  let db: Db;
  let scratch: ScratchDatabase | undefined;
  beforeAll(async () => {
    scratch = kind === "postgres" ? await createScratchDatabase() : undefined;
    db = scratch ? await openPostgres(scratch.url) : await openPglite(undefined);
  });
  afterAll(async () => {
    await db?.close();
    await scratch?.drop();
  });

  it.each([
    "0001-01-01T00:00:00.000Z",
    "0050-06-01T12:30:00.000Z",
    "0099-12-31T23:59:59.999Z",
    "1970-01-01T00:00:00.000Z",
    "2026-11-22T02:45:59.070Z",
    "9999-12-31T23:59:59.999Z",
  ])("returns timestamptz %s unchanged", async (iso) => {
    const [row] = await db.query<{ t: Date }>("select $1::timestamptz as t", [iso]);
    expect(row?.t).toBeInstanceOf(Date);
    expect(row?.t.toISOString()).toBe(iso);
  });

  it("returns int8 as a number and jsonb parsed", async () => {
    const [row] = await db.query<{ n: number; j: unknown }>(
      "select count(*) as n, $1::text::jsonb as j from (values (1), (2)) v(x)",
      [JSON.stringify({ a: [1, "b"] })],
    );
    expect(row).toEqual({ n: 2, j: { a: [1, "b"] } });
  });

  it("rolls a failed transaction back", async () => {
    await db.exec("create table if not exists t_adapter (x int)");
    await expect(
      db.transaction(async (tx) => {
        await tx.query("insert into t_adapter values (1)");
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await db.query("select * from t_adapter")).toEqual([]);
  });

  it("delivers a NOTIFY sent inside a transaction only after commit", async () => {
    const got: string[] = [];
    let delivered = () => {};
    const arrived = new Promise<void>((resolve) => {
      delivered = resolve;
    });
    const stop = await db.listen("t_adapter_channel", (p) => {
      got.push(p);
      delivered();
    });
    try {
      await db.transaction(async (tx) => {
        await tx.query("select pg_notify('t_adapter_channel', 'hello')");
        await new Promise((r) => setTimeout(r, 50));
        expect(got).toEqual([]);
      });
      // Waited for as an event: a loaded machine delivers it late, never not at all.
      await arrived;
      expect(got).toEqual(["hello"]);
    } finally {
      await stop();
    }
  });
});

describe.runIf(databaseKinds.includes("postgres"))("the postgres adapter's safety net", () => {
  it("ends a session left idle inside a transaction: the request fails unavailable, the pool serves on", async () => {
    const scratch = await createScratchDatabase();
    const db = await openPostgres(scratch.url, { max: 2, idleInTransactionMs: 300 });
    try {
      const stuck = db.transaction(async (tx) => {
        await tx.query("select 1");
        // Idle in the transaction for longer than the database allows.
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        await tx.query("select 2");
      });
      await expect(stuck).rejects.toBeInstanceOf(UnavailableError);
      expect(await db.query("select 3 as n")).toEqual([{ n: 3 }]);
    } finally {
      await db.close();
      await scratch.drop();
    }
  });
});
