import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { UnavailableError } from "@hivekeep/client-core/ops";
import { describe, expect, it } from "vitest";
import {
  initializeDataDir,
  openPglite,
  type PgliteFailedError,
  pgliteSharedBuffers,
  wrapPglite,
} from "./pglite.ts";

// Starting PGlite takes seconds on a busy machine.
describe("PGlite that fails for good", { timeout: 60_000 }, () => {
  it("answers unavailable and reports the failure once, so the process can be restarted", async () => {
    const pg = await PGlite.create("memory://");
    const failures: PgliteFailedError[] = [];
    const db = wrapPglite(pg, { onFailed: (err) => failures.push(err) });
    expect(await db.query("select 1 as one")).toEqual([{ one: 1 }]);
    // The instance goes away under the server (as after a WebAssembly abort).
    await pg.close();
    await expect(db.query("select 1")).rejects.toBeInstanceOf(UnavailableError);
    await expect(db.transaction((tx) => tx.query("select 1"))).rejects.toBeInstanceOf(
      UnavailableError,
    );
    expect(failures).toHaveLength(1);
    expect(failures[0]?.message).toContain("cannot recover in this process");
  });

  it("keeps a statement's own error as it is, and a close it was asked for is no failure", async () => {
    const failures: unknown[] = [];
    const db = wrapPglite(await PGlite.create("memory://"), {
      onFailed: (err) => failures.push(err),
    });
    await expect(db.query("select * from no_such_table")).rejects.toMatchObject({
      code: "42P01",
    });
    await db.close();
    await expect(db.query("select 1")).rejects.not.toBeInstanceOf(UnavailableError);
    expect(failures).toEqual([]);
  });
});

describe("PGlite's memory", { timeout: 60_000 }, () => {
  it("initializes a new data directory in a process of its own, then opens it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hivekeep-pglite-"));
    try {
      await initializeDataDir(join(dir, "data"));
      expect(existsSync(join(dir, "data", "PG_VERSION"))).toBe(true);
      const db = await openPglite(join(dir, "data"));
      try {
        expect(await db.query("select 1 as one")).toEqual([{ one: 1 }]);
      } finally {
        await db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("keeps Postgres's shared buffers small, on disk and in memory", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hivekeep-pglite-"));
    try {
      for (const dataDir of [join(dir, "new"), undefined]) {
        const db = await openPglite(dataDir);
        try {
          expect(await db.query("show shared_buffers")).toEqual([
            { shared_buffers: pgliteSharedBuffers },
          ]);
        } finally {
          await db.close();
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
