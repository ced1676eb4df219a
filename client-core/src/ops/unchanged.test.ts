import { describe, expect, it } from "vitest";
import type { Change } from "../core/change.ts";
import type { Hlc } from "../core/hlc.ts";
import { ignoreStamps } from "../testing/ignore-stamps.ts";
import { MemoryStore } from "./memory-store.ts";
import { withoutUnchanged } from "./unchanged.ts";

let n = 0;
const change = (op: Change["op"], entityId: string, payload: Change["payload"]): Change => ({
  entity: "hive",
  entityId,
  scopeId: "apiary-1",
  op,
  payload,
  hlc: `${String(++n).padStart(15, "0")}:00000:test` as Hlc,
  authorId: "me",
});

describe("withoutUnchanged", () => {
  it("leaves out the columns the row already holds, keeps the changed ones", async () => {
    const store = new MemoryStore(ignoreStamps);
    await store.write((w) =>
      w.apply([
        change("upsert", "h1", {
          name: "H1",
          apiary_id: "apiary-1",
          boxes: 1,
          note: "",
          created_at: "2026-05-01T10:00:00.000Z",
        }),
      ]),
    );
    const edit = change("upsert", "h1", {
      name: "H1",
      boxes: 2,
      note: "",
      updated_at: "2026-05-02T10:00:00.000Z",
    });
    const out = await store.read((r) => withoutUnchanged(r, [edit]));
    expect(out).toEqual([
      { ...edit, payload: { boxes: 2, updated_at: "2026-05-02T10:00:00.000Z" } },
    ]);
  });

  it("keeps a new row's change whole, deletes as they are, and drops an edit of nothing", async () => {
    const store = new MemoryStore(ignoreStamps);
    const created = change("upsert", "h2", {
      name: "H2",
      apiary_id: "apiary-1",
      created_at: "2026-05-01T10:00:00.000Z",
    });
    expect(await store.read((r) => withoutUnchanged(r, [created]))).toEqual([created]);
    await store.write((w) => w.apply([created]));
    const same = change("upsert", "h2", { name: "H2" });
    const gone = change("delete", "h2", {});
    expect(await store.read((r) => withoutUnchanged(r, [same, gone]))).toEqual([gone]);
  });
});
