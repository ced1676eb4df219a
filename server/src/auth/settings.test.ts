import { DomainError } from "@hivekeep/client-core/core";
import { describe, expect, it } from "vitest";
import type { Db } from "../db/db.ts";
import { type AuthSettings, loginSettings } from "./settings.ts";
import { defaultThrottle } from "./throttle.ts";

const env = (auth?: AuthSettings) => ({
  db: {} as Db,
  newId: () => "id",
  ...(auth ? { auth } : {}),
});
const settings = (mode: AuthSettings["mode"]): AuthSettings => ({
  mode,
  sessionTtlMs: 1000,
  signup: "open",
  throttle: defaultThrottle,
});

describe("loginSettings", () => {
  it("answers the settings of login mode", () => {
    const login = settings("login");
    expect(loginSettings(env(login))).toBe(login);
  });

  it.each([
    ["single-user mode", settings("none")],
    ["no settings (in-process callers)", undefined],
  ])("refuses in %s: there is nothing to sign in to", (_what, auth) => {
    let thrown: unknown;
    try {
      loginSettings(env(auth));
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(DomainError);
    expect([(thrown as DomainError).code, (thrown as DomainError).message]).toEqual([
      "precondition",
      "this server runs without sign-in (HIVEKEEP_AUTH=none); no account is needed",
    ]);
  });
});
