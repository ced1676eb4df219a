import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { ApiaryService, CreateApiaryResponseSchema } from "@hivekeep/proto";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db/db.ts";
import { migrate } from "../db/migrate.ts";
import { openPglite } from "../db/pglite.ts";
import { newServerClock } from "../store/server-clock.ts";
import { ensureLocalTenant, localCaller } from "../store/tenants.ts";
import { callerKey } from "./context.ts";
import type { Deps } from "./deps.ts";
import { idempotencyInterceptor, keyTxKey, takesIdempotencyKey } from "./idempotency.ts";

describe("takesIdempotencyKey", () => {
  it("covers the record services' Create calls, AddInspectionPhoto and CreateReadings, never AuthService's", () => {
    expect(takesIdempotencyKey("hivekeep.v1.InspectionService", "CreateInspection")).toBe(true);
    expect(takesIdempotencyKey("hivekeep.v1.InspectionService", "AddInspectionPhoto")).toBe(true);
    expect(takesIdempotencyKey("hivekeep.v1.InspectionService", "CreateReadings")).toBe(true);
    expect(takesIdempotencyKey("hivekeep.v1.HiveService", "CreateHive")).toBe(true);
    expect(takesIdempotencyKey("hivekeep.v1.InspectionService", "RemoveInspectionPhoto")).toBe(
      false,
    );
    expect(takesIdempotencyKey("hivekeep.v1.AuthService", "CreateApiKey")).toBe(false);
    expect(takesIdempotencyKey("hivekeep.v1.AuthService", "CreateInvitation")).toBe(false);
  });
});

describe("idempotencyInterceptor in one process", () => {
  let db: Db;
  beforeAll(async () => {
    db = await openPglite(undefined);
    await migrate(db);
    await ensureLocalTenant(db);
  }, 60_000);
  afterAll(async () => {
    await db?.close();
  });

  it("answers aborted to a second call with the key while the first runs, then the first answer", async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let runs = 0;
    let entered = () => {};
    const running = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const deps = {
      db,
      clock: newServerClock(),
      log: pino({ level: "silent" }),
    } as unknown as Deps;
    const transport = createRouterTransport(
      (router) => {
        router.service(ApiaryService, {
          async createApiary(req, ctx) {
            runs++;
            expect(ctx.values.get(keyTxKey)).toBeDefined();
            entered();
            await gate;
            return create(CreateApiaryResponseSchema, { apiary: { id: "a1", name: req.name } });
          },
        });
      },
      {
        router: {
          interceptors: [
            (next) => (req) =>
              next({ ...req, contextValues: req.contextValues.set(callerKey, localCaller) }),
            idempotencyInterceptor(deps),
          ],
        },
      },
    );
    const client = createClient(ApiaryService, transport);
    const headers = { "Idempotency-Key": "k1" };
    const first = client.createApiary({ name: "A" }, { headers });
    await running;
    const second = await client.createApiary({ name: "A" }, { headers }).catch((e) => e);
    expect(ConnectError.from(second).code).toBe(Code.Aborted);
    release();
    expect((await first).apiary?.name).toBe("A");
    const third = await client.createApiary({ name: "A" }, { headers });
    expect(third.apiary).toMatchObject({ id: "a1", name: "A" });
    expect(runs).toBe(1);
  });
});
