import type { DescMethod } from "@bufbuild/protobuf";
import { type ContextValues, createContextValues } from "@connectrpc/connect";
import { ApiaryService } from "@hivekeep/proto";
import { describe, expect, it } from "vitest";
import type { Caller } from "../auth/caller.ts";
import type { Queryable } from "../db/db.ts";
import { bearerToken, edgeCallerKey, loginInterceptor } from "./auth-interceptor.ts";
import { callerKey } from "./context.ts";

describe("bearerToken", () => {
  it.each([
    ["Bearer hks_abc-DEF_123", "hks_abc-DEF_123"],
    ["bearer hk_x", "hk_x"],
    ["Bearer   hk_x  ", "hk_x"],
  ])("reads %j", (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });

  it.each([null, "", "Bearer", "Bearer ", "Basic dXNlcg==", "Bearer a b", "Token hk_x"])(
    "finds no token in %j",
    (header) => {
      expect(bearerToken(header)).toBeUndefined();
    },
  );
});

describe("loginInterceptor", () => {
  const caller: Caller = { organizationId: "o", userId: "u", role: "owner", demo: false };
  /** A database that fails every query: a lookup would show. */
  const noDatabase = {
    query: async () => {
      throw new Error("the token was looked up again");
    },
  } as unknown as Queryable;
  const run = (method: DescMethod, values: ContextValues, header = new Headers()) =>
    // biome-ignore lint/suspicious/noExplicitAny: a minimal request for the interceptor.
    loginInterceptor(noDatabase)((async (req: any) => req.contextValues.get(callerKey)) as any)({
      method,
      header,
      contextValues: values,
      // biome-ignore lint/suspicious/noExplicitAny: a minimal request for the interceptor.
    } as any);

  it("takes the caller the HTTP edge found, without a second lookup", async () => {
    const values = createContextValues().set(edgeCallerKey, caller);
    expect(await run(ApiaryService.method.listApiaries, values)).toBe(caller);
  });

  it("still refuses a request the edge did not authenticate", async () => {
    await expect(run(ApiaryService.method.listApiaries, createContextValues())).rejects.toThrow(
      /sign in first/,
    );
  });

  it("a demo caller from the edge still cannot write", async () => {
    const values = createContextValues().set(edgeCallerKey, { ...caller, demo: true });
    await expect(run(ApiaryService.method.createApiary, values)).rejects.toThrow(/read-only/);
  });
});
