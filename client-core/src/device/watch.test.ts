import "fake-indexeddb/auto";
import { Dexie } from "dexie";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type WatchPace, watch } from "./watch.ts";

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

describe("watch with a pace", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A change of the watched replica, as Dexie announces it (no IndexedDB needed). */
  const mutated = () => Dexie.on.storagemutated.fire({ "idb://paced/notes/": true } as never);

  /** A pace of `gap` ms that the test ends by setting `gap` to 0. */
  function testPace(initial: number) {
    let gap = initial;
    const listeners = new Set<() => void>();
    const pace: WatchPace = {
      gapMs: () => gap,
      subscribe: (l) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
    };
    return {
      pace,
      set(ms: number) {
        gap = ms;
        for (const l of listeners) l();
      },
    };
  }

  it("runs again no sooner than the gap after the last run, once for many changes, and at once when the pace ends", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const { pace, set } = testPace(2000);
    let runs = 0;
    const sub = watch("paced", async () => ++runs, { pace }).subscribe({});
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(1);
    // Changes during the gap: one run, when the gap has passed since the first ended.
    mutated();
    await vi.advanceTimersByTimeAsync(1000);
    mutated();
    await vi.advanceTimersByTimeAsync(999);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(2);
    // Another change waits its gap; the pace ends meanwhile: the run starts at once.
    mutated();
    await vi.advanceTimersByTimeAsync(500);
    expect(runs).toBe(2);
    set(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(3);
    // Without a pace a change runs the query at once.
    mutated();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(4);
    sub.unsubscribe();
  });

  it("waits at least as long as the last run took, so a slow query reads at most half of the time", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const { pace } = testPace(100);
    let runs = 0;
    const sub = watch(
      "paced",
      async () => {
        runs++;
        // Each run takes 3 s.
        await new Promise((r) => setTimeout(r, 3000));
        return runs;
      },
      { pace },
    ).subscribe({});
    await vi.advanceTimersByTimeAsync(3000);
    expect(runs).toBe(1);
    mutated();
    await vi.advanceTimersByTimeAsync(2999);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(2);
    sub.unsubscribe();
  });

  it("a change during a run causes one paced run after it; unsubscribing cancels a waiting run", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const { pace } = testPace(1000);
    let runs = 0;
    let release: (() => void) | undefined;
    const sub = watch(
      "paced",
      async () => {
        runs++;
        if (runs === 1) await new Promise<void>((r) => (release = r));
        return runs;
      },
      { pace },
    ).subscribe({});
    await vi.advanceTimersByTimeAsync(0);
    mutated();
    mutated();
    release?.();
    await vi.advanceTimersByTimeAsync(999);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(2);
    mutated();
    sub.unsubscribe();
    await vi.advanceTimersByTimeAsync(5000);
    expect(runs).toBe(2);
  });
});
