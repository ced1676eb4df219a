/** The two database adapters agree on how values come back. */
import { connect, createServer, type Socket } from "node:net";
import { UnavailableError } from "@hivekeep/client-core/ops";
import { type Db, openPostgres } from "@hivekeep/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createScratchDatabase,
  databaseKinds,
  type ScratchDatabase,
} from "../support/databases.ts";
import { templatePglite } from "../support/pglite-template.ts";

describe.each(databaseKinds)("the %s adapter", (kind) => {
  let db: Db;
  let scratch: ScratchDatabase | undefined;
  beforeAll(async () => {
    scratch = kind === "postgres" ? await createScratchDatabase() : undefined;
    db = scratch ? await openPostgres(scratch.url) : await templatePglite("new");
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

describe.runIf(databaseKinds.includes("postgres"))(
  "the postgres adapter, its connection reset",
  () => {
    it("fails the statements sent between the socket's error and its close; the next session answers its own", async () => {
      const scratch = await createScratchDatabase();
      const proxy = await resetOnce(new URL(scratch.url), "pg_sleep");
      // One connection, so the pool pipelines every statement onto it while it is busy.
      const db = await openPostgres(proxy.url, { max: 1 });
      try {
        const late: Promise<unknown>[] = [];
        // The proxy resets the connection while this runs (a terminated backend's RST looks the
        // same). Its failure arrives with the socket's error event; its close comes a moment
        // later, and the pool still counts the connection busy in between: what a request
        // sends then is pipelined onto the dead socket.
        const first = db.query("select pg_sleep(5)").catch((err: unknown) => {
          for (let i = 0; i < 3; i++) late.push(db.query("select $1::int as n", [i]));
          throw err;
        });
        await expect(first).rejects.toBeInstanceOf(UnavailableError);
        expect(late).toHaveLength(3);
        // The first is pipelined onto the dead socket (the pool queues the others: a statement
        // not yet prepared on a connection is sent alone). It fails unavailable; before, it stayed
        // in the connection's list of statements awaiting an answer, never settled, and took the
        // answer of the next session's first statement, so every later one waited for good.
        const outcomes = await Promise.allSettled(late);
        expect(outcomes[0]).toMatchObject({
          status: "rejected",
          reason: expect.any(UnavailableError),
        });
        // The others ran on the next session, each with its own answer (or failed unavailable).
        outcomes.forEach((o, i) => {
          if (o.status === "fulfilled") expect(o.value).toEqual([{ n: i }]);
          else expect(o.reason).toBeInstanceOf(UnavailableError);
        });
        // The next session: a transaction (its first statement prepared, as a Push's lock is)
        // and a plain statement, each with its own answer.
        expect(
          await db.transaction(async (tx) => [
            await tx.query("select $1::int as n", [7]),
            await tx.query("select $1::text as s", ["after"]),
          ]),
        ).toEqual([[{ n: 7 }], [{ s: "after" }]]);
        expect(await db.query("select 2 as n")).toEqual([{ n: 2 }]);
        expect(proxy.resets()).toBe(1);
      } finally {
        await db.close();
        proxy.close();
        await scratch.drop();
      }
    }, 15_000);
  },
);

/**
 * A TCP proxy in front of the database that resets (RST) the client's connection once, right
 * after forwarding the first data that contains `marker`: the client sees ECONNRESET while the
 * statement runs.
 */
async function resetOnce(target: URL, marker: string) {
  const sockets = new Set<Socket>();
  let resets = 0;
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("error", () => {});
      s.on("close", () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    upstream.pipe(client);
    client.on("data", (data: Buffer) => {
      upstream.write(data);
      if (resets === 0 && data.includes(marker)) {
        resets++;
        setImmediate(() => client.resetAndDestroy());
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(target);
  url.host = `127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url: url.toString(),
    resets: () => resets,
    close() {
      server.close();
      for (const s of sockets) s.destroy();
    },
  };
}
