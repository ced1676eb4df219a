/**
 * Demo sessions (HIVEKEEP_DEMO=true): StartDemo gives a read-only session on
 * a shared organization seeded with a season. Every write of every service,
 * Push included, is permission_denied whatever ids it names, checked before
 * any lookup (contract §5.4, §7).
 */
import { randomUUID } from "node:crypto";
import type { DescService } from "@bufbuild/protobuf";
import { isReadMethod } from "@hivekeep/client-core/ops";
import * as proto from "@hivekeep/proto";
import { AuthService } from "@hivekeep/proto";
import { describe, expect, it } from "vitest";
import { loginEnv, relaxedThrottle, signUp } from "../support/accounts.ts";
import { databaseKinds } from "../support/databases.ts";
import { callOk, expectError, pullAll, useTestServer } from "../support/fixtures.ts";
import { apiaryUpsert, device, pushJson } from "../support/sync.ts";

const services = Object.values(proto as Record<string, unknown>).filter(
  (v): v is DescService =>
    typeof v === "object" && v !== null && (v as { kind?: string }).kind === "service",
);
const publicAuth = new Set(["SignUp", "Login", "StartDemo"]);
/** The JSON names of the fields of a method's request (`Service/Method`). */
const inputFields = (path: string): Set<string> => {
  const [service, method] = path.split("/");
  const desc = services
    .find((s) => s.typeName === `hivekeep.v1.${service}`)
    ?.methods.find((m) => m.name === method);
  return new Set(desc?.input.fields.map((f) => f.jsonName));
};
const writes = services.flatMap((s) =>
  s.methods
    .filter((m) => !isReadMethod(m.name))
    .filter((m) => !(s.typeName === AuthService.typeName && publicAuth.has(m.name)))
    .map((m) => `${s.typeName.replace("hivekeep.v1.", "")}/${m.name}`),
);

describe.each(databaseKinds)("demo sessions on %s", (kind) => {
  const t = useTestServer(
    kind,
    { ...loginEnv, HIVEKEEP_DEMO: "true" },
    { throttle: relaxedThrottle },
  );

  const startDemo = async () => {
    const r = await callOk(t, "AuthService/StartDemo", {});
    expect(r.sessionToken).toMatch(/^hks_/);
    expect(Date.parse(r.expiresAt)).toBeGreaterThan(Date.now());
    return t.as(r.sessionToken);
  };

  it("StartDemo gives a read-only session on a seeded season", { timeout: 120_000 }, async () => {
    const demo = await startDemo();
    const me = await callOk(demo, "AuthService/WhoAmI", {});
    expect(me).toMatchObject({ demo: true, authMode: "AUTH_MODE_LOGIN" });
    expect(me.organization.name).toBe("Demo apiaries");
    // A demo session cannot switch (SwitchOrganization is a write): it names only its own.
    expect(me.organizations).toEqual([me.organization]);
    const apiaries = await callOk(demo, "ApiaryService/ListApiaries", {});
    expect(apiaries.page.total).toBe(4);
    const hives = await callOk(demo, "HiveService/ListHives", { page: { pageSize: 100 } });
    expect(hives.page.total).toBeGreaterThanOrEqual(16);
    const inspections = await callOk(demo, "InspectionService/ListInspections", {});
    expect(inspections.page.total).toBeGreaterThan(100);
    const dash = await callOk(demo, "StatsService/GetDashboard", {});
    expect(dash.apiaries).toBe(4);
    const { changes } = await pullAll(demo, "");
    expect(changes.length).toBeGreaterThan(500);
    // A second demo session shares the one seeded organization.
    const again = await startDemo();
    expect((await callOk(again, "AuthService/WhoAmI", {})).organization.id).toBe(
      me.organization.id,
    );
    expect((await callOk(again, "ApiaryService/ListApiaries", {})).page.total).toBe(4);
  });

  it("covers every write method of every service", () => {
    expect(writes).toContain("SyncService/Push");
    expect(writes).toContain("TaskService/SetTaskDone");
    expect(writes).toContain("AuthService/CreateApiKey");
    expect(writes).not.toContain("ApiaryService/ListApiaries");
    expect(writes.length).toBeGreaterThanOrEqual(22);
  });

  it.each(writes)("%s is permission_denied, whatever ids it names", async (path) => {
    const demo = await startDemo();
    const own = (await callOk(demo, "ApiaryService/ListApiaries", {})).apiaries[0].id;
    const before = (await pullAll(demo, "")).nextCursor;
    for (const id of [own, randomUUID(), "not-even-an-id"]) {
      const all = { id, apiaryId: id, hiveId: id, inspectionId: id, name: "x", title: "x" };
      // Only the fields the request has: an unknown one would be refused first (issue 27).
      const body = Object.fromEntries(
        Object.entries(all).filter(([k]) => inputFields(path).has(k)),
      );
      const e = expectError(await demo.call(path, body), 403);
      expect(e.code).toBe("permission_denied");
      expect(e.message).toMatch(/demo session is read-only/);
    }
    expect((await pullAll(demo, before)).changes).toEqual([]);
  });

  it("a Push of a well-formed change is permission_denied and writes nothing", async () => {
    const demo = await startDemo();
    const own = (await callOk(demo, "ApiaryService/ListApiaries", {})).apiaries[0].id;
    const before = (await pullAll(demo, "")).nextCursor;
    const phone = device("demo-phone");
    const r = await pushJson(demo, [apiaryUpsert(own, phone.stamp(), { name: "Renamed" })]);
    expect(expectError(r, 403).code).toBe("permission_denied");
    expect((await pullAll(demo, before)).changes).toEqual([]);
  });

  it("a demo session can log out; other tenants never see the demo data", async () => {
    const demo = await startDemo();
    const demoApiaries = (await callOk(demo, "ApiaryService/ListApiaries", {})).apiaries;
    expect(await callOk(demo, "AuthService/Logout", {})).toEqual({});
    expectError(await demo.call("ApiaryService/ListApiaries", {}), 401);
    const someone = await signUp(t);
    expect((await callOk(someone.t, "ApiaryService/ListApiaries", {})).apiaries).toBeUndefined();
    const e = expectError(
      await someone.t.call("ApiaryService/GetApiary", { id: demoApiaries[0].id }),
      404,
    );
    expect(e.code).toBe("not_found");
  });
});
