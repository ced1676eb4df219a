import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import type { Change } from "../core/change.ts";
import type { EntityName } from "../core/entities.ts";
import type { Hlc } from "../core/hlc.ts";
import type { Values } from "../core/merge.ts";
import { ignoreStamps } from "../testing/ignore-stamps.ts";
import { localStats } from "./local-stats.ts";
import { MemoryStore } from "./memory-store.ts";
import type { OpsSession } from "./session.ts";
import { exportBackup, exportChunkLength, importRecords } from "./transfer-service.ts";

let n = 0;
const stamp = () => `${String(++n).padStart(15, "0")}:00000:test` as Hlc;
const change = (
  entity: EntityName,
  entityId: string,
  scopeId: string,
  payload: Values,
  op: "upsert" | "delete" = "upsert",
): Change => ({ entity, entityId, scopeId, op, payload, hlc: stamp(), authorId: "me" });

function session(store: MemoryStore, userId = "me"): OpsSession {
  return {
    store,
    stats: localStats(store),
    organizationId: "org",
    organizationName: async () => "Imkerei",
    userId,
    now: () => new Date("2026-05-01T10:00:00Z"),
    newId: () => `0190a000-0000-7000-8000-${String(++n).padStart(12, "0")}`,
    stamp,
  };
}

async function backupOf(s: OpsSession) {
  const chunks: string[] = [];
  for await (const c of exportBackup(s)) chunks.push(c);
  return { chunks, file: JSON.parse(chunks.join("")) };
}

const at = "2026-04-01T10:00:00.000Z";

describe("exportBackup", () => {
  it("carries only the exporter's own personal tasks, and the register's trail", async () => {
    const store = new MemoryStore(ignoreStamps);
    await store.write((w) =>
      w.apply([
        change("apiary", "a1", "a1", { name: "Home" }),
        change("hive", "h1", "a1", { apiary_id: "a1", name: "H" }),
        change("task", "t-mine", "user:me", { title: "Mine" }),
        change("task", "t-theirs", "user:other", { title: "Theirs" }),
        change("task", "t-shared", "a1", { title: "At the apiary", apiary_id: "a1" }),
        change("treatment", "tr1", "a1", { hive_id: "h1", product: "Thymol", date: at }),
        change("event", "e1", "a1", { type: 6, date: at, ref_entity: "treatment", ref_id: "tr1" }),
        change("treatment", "tr1", "a1", {}, "delete"),
        change("event", "e1", "a1", {}, "delete"),
        change("event", "e2", "a1", { type: 7, date: at, ref_entity: "harvest", ref_id: "x" }),
        change("event", "e2", "a1", {}, "delete"),
      ]),
    );
    const { file } = await backupOf(session(store));
    expect(file.organization).toEqual({ id: "org", name: "Imkerei" });
    expect(file.exportedAt).toBe("2026-05-01T10:00:00.000Z");
    expect(file.records.task.map((t: { id: string }) => t.id).sort()).toEqual([
      "t-mine",
      "t-shared",
    ]);
    expect(file.records.treatment).toEqual([
      { id: "tr1", hive_id: "h1", product: "Thymol", date: at, deleted: true },
    ]);
    // The tombstoned TREATMENT event is the trail; another tombstoned event is not carried.
    expect(file.records.event.map((e: { id: string }) => e.id)).toEqual(["e1"]);
  });

  it("sends the file in chunks of about exportChunkLength", async () => {
    const store = new MemoryStore(ignoreStamps);
    const note = "x".repeat(9000);
    await store.write((w) =>
      w.apply(
        Array.from({ length: 80 }, (_, i) =>
          change("apiary", `a${i}`, `a${i}`, { name: `A${i}`, address: note }),
        ),
      ),
    );
    const { chunks, file } = await backupOf(session(store));
    expect(file.records.apiary).toHaveLength(80);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks.slice(0, -1)) expect(c.length).toBeGreaterThanOrEqual(exportChunkLength);
  });
});

describe("importRecords", () => {
  const backup = (records: object) =>
    JSON.stringify({
      format: "hivekeep-backup",
      version: 1,
      exportedAt: at,
      organization: { id: "o", name: "o" },
      records,
    });

  it("writes nothing on a dry run or with problems, and the plan's changes otherwise", async () => {
    const store = new MemoryStore(ignoreStamps);
    const s = session(store);
    const content = backup({ apiary: [{ id: "a1", name: "Home" }] });
    const dry = await importRecords(s, { content, dryRun: true, format: "" });
    expect(dry).toMatchObject({ format: "hivekeep", written: false, problems: [] });
    expect(dry.counts.find((c) => c.entity === "apiary")).toEqual({
      entity: "apiary",
      created: 1,
      existing: 0,
    });
    expect(store.feed).toEqual([]);

    const bad = backup({ hive: [{ id: "h1", apiary_id: "nowhere", name: "H" }] });
    const err = await importRecords(s, { content: bad, dryRun: false, format: "" }).catch((e) => e);
    expect(err).toBeInstanceOf(ConnectError);
    expect((err as ConnectError).code).toBe(Code.InvalidArgument);
    expect((err as ConnectError).rawMessage).toBe(
      "the file was not imported, it has 1 problem: hive h1 refers to apiary nowhere, which is neither in the file nor in this organization",
    );
    expect(store.feed).toEqual([]);

    const done = await importRecords(s, { content, dryRun: false, format: "" });
    expect(done.written).toBe(true);
    expect(store.feed.map((c) => `${c.entity} ${c.entityId} ${c.authorId}`)).toEqual([
      "apiary a1 me",
    ]);
  });

  it("refuses a format hint no reader knows with invalid_argument", async () => {
    const s = session(new MemoryStore(ignoreStamps));
    const err = await importRecords(s, { content: "{}", dryRun: true, format: "xlsx" }).catch(
      (e) => e,
    );
    expect((err as ConnectError).code).toBe(Code.InvalidArgument);
    expect((err as ConnectError).rawMessage).toMatch(/^format "xlsx" is unknown/);
  });
});
