/**
 * An operator switches a single-user server to hosted mode: `pnpm invite`
 * issues an owner invitation for the single-user organization, the server
 * restarts with HIVEKEEP_AUTH=login (sign-up closed), and whoever signs up
 * with the token owns the data that was there. Runs on the embedded database
 * in a directory, and on Postgres when DATABASE_URL is set.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { relaxedThrottle, signUp } from "../support/accounts.ts";
import { databaseKinds, lastingDatabase } from "../support/databases.ts";
import { callOk, expectError, newApiary } from "../support/fixtures.ts";
import { startTestServer } from "../support/server.ts";

const serverDir = join(import.meta.dirname, "..", "..", "server");

async function invite(env: Record<string, string>, args: string[]) {
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "src/auth/invite-main.ts", ...args],
      { cwd: serverDir, env: { ...process.env, DATABASE_URL: "", ...env }, encoding: "utf8" },
    );
    return { code: 0, out: stdout };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

describe.each(databaseKinds)("switching to login on %s", (kind) => {
  it("pnpm invite gives the single-user organization an owner", { timeout: 60_000 }, async () => {
    const { env, drop } = await lastingDatabase(kind);
    // "pglite": the database comes from env (see lastingDatabase).
    const start = (more: Record<string, string>) =>
      startTestServer("pglite", { ...env, ...more }, { throttle: relaxedThrottle });
    try {
      const single = await start({});
      const apiary = await newApiary(single, "From single-user days");
      await single.stop();

      expect((await invite(env, [])).code).toBe(2);
      const issued = await invite(env, ["--email", "ana@example.org"]);
      expect(issued.code, issued.out).toBe(0);
      const token = /hki_[\w-]+/.exec(issued.out)?.[0];
      expect(token).toBeDefined();

      const hosted = await start({ HIVEKEEP_AUTH: "login", HIVEKEEP_SIGNUP: "closed" });
      try {
        expectError(await hosted.call("ApiaryService/GetApiary", { id: apiary }), 401);
        const ana = await signUp(hosted, { email: "ana@example.org", invitationToken: token });
        const me = await callOk(ana.t, "AuthService/WhoAmI", {});
        expect(me.role).toBe("ROLE_OWNER");
        expect(me.organization.name).toBe("My apiaries");
        const got = await callOk(ana.t, "ApiaryService/GetApiary", { id: apiary });
        expect(got.apiary.name).toBe("From single-user days");
      } finally {
        await hosted.stop();
      }
    } finally {
      await drop();
    }
  });
});
