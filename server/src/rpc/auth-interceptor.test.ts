import { describe, expect, it } from "vitest";
import { bearerToken } from "./auth-interceptor.ts";

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
