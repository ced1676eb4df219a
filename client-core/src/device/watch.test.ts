import "fake-indexeddb/auto";
import { Dexie } from "dexie";
import { afterEach, describe, expect, it } from "vitest";
import { watch } from "./watch.ts";

let db: Dexie & {
  notes: Dexie.Table<{ id: number; text: string }, number>;
  outbox: Dexie.Table<{ id: number; text: string }, number>;
};
afterEach(async () => {
  db?.close();
  await Dexie.delete("watch-test");
});

async function open() {
  db = new Dexie("watch-test") as typeof db;
  db.version(1).stores({ notes: "id", outbox: "id" });
  await db.open();
  return db;
}

describe("watch", () => {
  it("runs the query again after a write to the database", async () => {
    const d = await open();
    const seen: number[] = [];
    const sub = watch("watch-test", () => d.notes.count()).subscribe({ next: (n) => seen.push(n) });
    await expect.poll(() => seen).toEqual([0]);
    await d.notes.put({ id: 1, text: "a" });
    await expect.poll(() => seen.at(-1)).toBe(1);
    sub.unsubscribe();
  });

  it("delivers a slow run's answer though writes keep arriving, then runs once more", async () => {
    const d = await open();
    const seen: number[] = [];
    let runs = 0;
    let release: (() => void) | undefined;
    const sub = watch("watch-test", async () => {
      runs++;
      const n = await d.notes.count();
      // The first run waits until two writes happened during it.
      if (runs === 1) await new Promise<void>((r) => (release = r));
      return n;
    }).subscribe({ next: (n) => seen.push(n) });
    await expect.poll(() => release).toBeDefined();
    await d.notes.put({ id: 1, text: "a" });
    await d.notes.put({ id: 2, text: "b" });
    release?.();
    // The stale answer (0) is shown, then the fresh one; the two writes cost one more run.
    await expect.poll(() => seen).toEqual([0, 2]);
    expect(runs).toBe(2);
    sub.unsubscribe();
  });

  it("with tables, runs again only after a write to one of them", async () => {
    const d = await open();
    let runs = 0;
    const seen: number[] = [];
    const sub = watch(
      "watch-test",
      () => {
        runs++;
        return d.notes.count();
      },
      { tables: ["notes"] },
    ).subscribe({ next: (n) => seen.push(n) });
    await expect.poll(() => seen).toEqual([0]);
    await d.outbox.put({ id: 1, text: "acknowledged" });
    await d.outbox.delete(1);
    await d.notes.put({ id: 1, text: "a" });
    await expect.poll(() => seen).toEqual([0, 1]);
    // The two outbox writes came before the notes write: had they counted, there would be more.
    expect(runs).toBe(2);
    sub.unsubscribe();
  });

  it("stops after unsubscribe", async () => {
    const d = await open();
    const seen: number[] = [];
    const sub = watch("watch-test", () => d.notes.count()).subscribe({ next: (n) => seen.push(n) });
    await expect.poll(() => seen).toEqual([0]);
    sub.unsubscribe();
    await d.notes.put({ id: 1, text: "a" });
    await d.notes.count();
    expect(seen).toEqual([0]);
  });
});
