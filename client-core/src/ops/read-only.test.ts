import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { ApiaryService } from "@hivekeep/proto";
import { describe, expect, it } from "vitest";
import { ignoreStamps } from "../testing/ignore-stamps.ts";
import { localStats } from "./local-stats.ts";
import { MemoryStore } from "./memory-store.ts";
import { isReadMethod, readOnlyInterceptor } from "./read-only.ts";
import { recordServices } from "./services.ts";
import type { OpsSession } from "./session.ts";

describe("isReadMethod", () => {
  it.each([
    "GetHive",
    "ListApiaries",
    "GetDashboard",
    "Pull",
    "Subscribe",
    "WhoAmI",
    "Logout",
    "ExportBackup",
  ])("%s is a read", (name) => {
    expect(isReadMethod(name)).toBe(true);
  });

  it.each([
    "Push",
    "CreateApiary",
    "SetTaskDone",
    "Getaway",
    "Listen",
    "PullAll",
    "CreateApiKey",
    "ImportRecords",
    "Exporter",
  ])("%s is a write", (name) => {
    expect(isReadMethod(name)).toBe(false);
  });
});

describe("readOnlyInterceptor", () => {
  const setup = (readOnly: boolean) => {
    const store = new MemoryStore(ignoreStamps);
    let n = 0;
    const session: OpsSession = {
      store,
      stats: localStats(store),
      organizationId: "org",
      userId: "me",
      now: () => new Date("2026-05-01T10:00:00Z"),
      newId: () => `0190a000-0000-7000-8000-${String(++n).padStart(12, "0")}`,
      stamp: () => `${String(++n).padStart(15, "0")}:00000:test` as ReturnType<OpsSession["stamp"]>,
    };
    const transport = createRouterTransport(
      recordServices(() => session),
      {
        router: { interceptors: [readOnlyInterceptor(() => readOnly)] },
      },
    );
    return { store, apiaries: createClient(ApiaryService, transport) };
  };

  it("refuses a write with permission_denied and writes nothing", async () => {
    const { apiaries } = setup(true);
    const err = await apiaries.createApiary({ name: "Home" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectError);
    expect((err as ConnectError).code).toBe(Code.PermissionDenied);
    expect((err as ConnectError).rawMessage).toBe(
      "a demo session is read-only: CreateApiary is not allowed",
    );
    expect((await apiaries.listApiaries({})).apiaries).toEqual([]);
  });

  it("lets reads and, when not read-only, writes through", async () => {
    const { apiaries } = setup(false);
    const created = await apiaries.createApiary({ name: "Home" });
    expect((await apiaries.listApiaries({})).apiaries.map((a) => a.id)).toEqual([
      created.apiary?.id,
    ]);
  });
});
