/**
 * The one behaviour every ReplicaStore must have (client-core ops/replica-store.ts), run against
 * each implementation: memory (ops/memory-store.test.ts), Dexie (device/dexie-store.test.ts) and
 * SQL on PGlite and Postgres (server/src/store/sql-store.test.ts). Each test writes rows of its own
 * (fresh ids), so one store serves the whole suite.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Change } from "../core/change.ts";
import type { EntityName } from "../core/entities.ts";
import { type Clock, createClock, type Hlc, receive, tick } from "../core/hlc.ts";
import type { Values } from "../core/merge.ts";
import type { ListQuery } from "../ops/query.ts";
import type { ReplicaStore, StampObserver } from "../ops/replica-store.ts";

/** A clock as the operations stamp with (the server's, a device's). */
export interface SuiteClock extends StampObserver {
  stamp(): Hlc;
}

export interface OpenedStore {
  readonly store: ReplicaStore;
  /**
   * The clock the store was built with, as a session builds it (the one the operations stamp
   * with), its wall time fixed at `suiteWallMs`.
   */
  readonly clock: SuiteClock;
  close(): Promise<void>;
}

/**
 * The wall time of the store's clock (fixed: no test depends on the machine's time). The rows
 * of the suite are stamped in 1970, far behind it, except those stamped ahead of it on purpose.
 */
export const suiteWallMs = Date.UTC(2026, 4, 1);

/** A clock at `suiteWallMs`, for a store without a clock of its own kind (memory). */
export function suiteClock(node = "suite-clock"): SuiteClock {
  let clock: Clock = createClock(node);
  return {
    stamp() {
      const next = tick(clock, suiteWallMs);
      clock = next.clock;
      return next.hlc;
    },
    observe(hlc) {
      clock = receive(clock, hlc, suiteWallMs);
    },
  };
}

let counter = 0;
/** A fresh id (UUID-shaped, so every store accepts it). */
export const freshId = (): string => {
  counter += 1;
  const n = (Date.now() * 1000 + counter).toString(16).padStart(12, "0").slice(-12);
  return `0190a0b0-c0d0-7e0f-8000-${n}`;
};

const hlc = (ms: number, node = "suite"): Hlc =>
  `${String(ms).padStart(15, "0")}:00000:${node}` as Hlc;

const up = (
  entity: EntityName,
  id: string,
  scopeId: string,
  at: number,
  payload: Values,
): Change => ({
  entity,
  entityId: id,
  scopeId,
  op: "upsert",
  payload,
  hlc: hlc(at),
  authorId: "user-1",
});

const del = (entity: EntityName, id: string, scopeId: string, at: number): Change => ({
  entity,
  entityId: id,
  scopeId,
  op: "delete",
  payload: {},
  hlc: hlc(at),
  authorId: "user-1",
});

const t = (day: number) => new Date(Date.UTC(2026, 4, day)).toISOString();

export function replicaStoreSuite(name: string, open: () => Promise<OpenedStore>): void {
  describe(`ReplicaStore: ${name}`, () => {
    let opened: OpenedStore;
    let store: ReplicaStore;
    let clock: SuiteClock;
    const apiary = freshId();
    beforeAll(async () => {
      opened = await open();
      store = opened.store;
      clock = opened.clock;
      await store.write((w) =>
        w.apply([up("apiary", apiary, apiary, 1000, { name: "Home", created_at: t(1) })]),
      );
    });
    afterAll(async () => opened?.close());

    const apply = (...changes: Change[]) => store.write((w) => w.apply(changes));
    const ids = async (entity: EntityName, query: ListQuery) =>
      (await store.read((r) => r.list(entity, query))).rows.map((row) => row.id);

    it("gets complete live rows with their values, stamps and scope", async () => {
      const id = freshId();
      await apply(up("hive", id, apiary, 2000, { apiary_id: apiary, name: "Nord", boxes: 2 }));
      const row = await store.read((r) => r.get("hive", id));
      expect(row).toEqual({
        id,
        scopeId: apiary,
        values: { apiary_id: apiary, name: "Nord", boxes: 2 },
        clock: { apiary_id: hlc(2000), name: hlc(2000), boxes: hlc(2000) },
        deleted: false,
      });
    });

    it("keeps timestamps as RFC 3339 strings with milliseconds", async () => {
      const id = freshId();
      await apply(up("inspection", id, apiary, 2000, { hive_id: freshId(), date: t(3) }));
      const row = await store.read((r) => r.get("inspection", id));
      expect(row?.values.date).toBe("2026-05-03T00:00:00.000Z");
    });

    it("hides partial rows always and deleted rows unless asked", async () => {
      const partial = freshId();
      const gone = freshId();
      await apply(
        up("hive", partial, apiary, 2000, { boxes: 3 }),
        up("hive", gone, apiary, 2000, { apiary_id: apiary, name: "Gone" }),
        del("hive", gone, apiary, 2001),
      );
      await store.read(async (r) => {
        expect(await r.get("hive", partial)).toBeUndefined();
        expect(await r.get("hive", partial, { evenDeleted: true })).toBeUndefined();
        expect(await r.get("hive", gone)).toBeUndefined();
        expect((await r.get("hive", gone, { evenDeleted: true }))?.deleted).toBe(true);
        const { rows } = await r.list("hive", {
          where: [{ column: "apiary_id", eq: apiary }],
          orderBy: [{ column: "id" }],
        });
        expect(rows.map((x) => x.id)).not.toContain(gone);
        const all = await r.list("hive", {
          where: [{ column: "apiary_id", eq: apiary }],
          orderBy: [{ column: "id" }],
          evenDeleted: true,
        });
        expect(all.rows.map((x) => x.id)).toContain(gone);
        expect(all.rows.map((x) => x.id)).not.toContain(partial);
        expect(all.rows.find((x) => x.id === gone)?.deleted).toBe(true);
        const scopes = await r.scopesOf("hive", [partial, gone, freshId(), gone]);
        expect([...scopes]).toEqual([[gone, apiary]]);
        expect((await r.scopesOf("hive", [])).size).toBe(0);
        for (const limit of [undefined, 10]) {
          const all = await r.list("hive", {
            where: [{ column: "apiary_id", eq: apiary }],
            orderBy: [{ column: "name" }, { column: "id" }],
            limit,
            evenDeleted: true,
          });
          expect(all.rows.find((x) => x.id === gone)?.deleted, `limit ${limit}`).toBe(true);
          expect(all.rows.map((x) => x.id)).not.toContain(partial);
        }
      });
    });

    it("merges with last-writer-wins per column", async () => {
      const id = freshId();
      await apply(up("hive", id, apiary, 3000, { apiary_id: apiary, name: "B", boxes: 1 }));
      await apply(
        up("hive", id, apiary, 2000, { name: "A", boxes: 9 }),
        up("hive", id, apiary, 4000, { boxes: 2 }),
      );
      const row = await store.read((r) => r.get("hive", id));
      expect(row?.values).toMatchObject({ name: "B", boxes: 2 });
      expect(row?.clock).toMatchObject({ name: hlc(3000), boxes: hlc(4000) });
    });

    it("sees its own writes inside a write, and keeps nothing of a write that throws", async () => {
      const id = freshId();
      const failed = store.write(async (w) => {
        await w.apply([up("hive", id, apiary, 2000, { apiary_id: apiary, name: "Temp" })]);
        expect((await w.get("hive", id))?.values.name).toBe("Temp");
        throw new Error("abort");
      });
      await expect(failed).rejects.toThrow("abort");
      expect(await store.read((r) => r.get("hive", id))).toBeUndefined();
    });

    it("observes every row a write reads (get and list), so the changes it then stamps win over them", async () => {
      // Rows another node stamped ahead of this clock (a minute apart), which it has not seen.
      const ahead = suiteWallMs + 3_600_000;
      const hive = freshId();
      const [got, listed] = [freshId(), freshId()];
      await apply(
        up("task", got, apiary, ahead, { title: "got", hive_id: hive }),
        up("task", listed, apiary, ahead + 60_000, { title: "listed", hive_id: hive }),
      );
      const edit = (id: string): Change => ({
        ...up("task", id, apiary, 0, { title: "edited" }),
        hlc: clock.stamp(),
      });
      const editedAt = async (id: string) => {
        const row = await store.read((r) => r.get("task", id));
        return { title: row?.values.title, later: (row?.clock.title ?? "") > hlc(ahead) };
      };

      // The edit of a row read with get: stamped after the row's stamps, so it wins.
      await store.write(async (w) => {
        expect((await w.get("task", got))?.values.title).toBe("got");
        await w.apply([edit(got)]);
      });
      expect(await editedAt(got)).toEqual({ title: "edited", later: true });

      // Of a row read with list (stamped later than the one get saw): it wins too.
      await store.write(async (w) => {
        const { rows } = await w.list("task", {
          where: [{ column: "hive_id", eq: hive }],
          orderBy: [{ column: "id" }],
        });
        expect(rows.map((r) => r.id).sort()).toEqual([got, listed].sort());
        await w.apply([edit(listed)]);
      });
      const after = await store.read((r) => r.get("task", listed));
      expect(after?.values.title).toBe("edited");
      expect((after?.clock.title ?? "") > hlc(ahead + 60_000)).toBe(true);
    });

    it("filters by equality; a default value also matches a column never written", async () => {
      const hive = freshId();
      const [a, b, c] = [freshId(), freshId(), freshId()];
      await apply(
        up("task", a, apiary, 2000, { title: "a", hive_id: hive, done: true }),
        up("task", b, apiary, 2000, { title: "b", hive_id: hive, done: false }),
        up("task", c, apiary, 2000, { title: "c", hive_id: hive }),
      );
      const byHive = { column: "hive_id", eq: hive } as const;
      const order = [{ column: "title" }];
      expect(
        await ids("task", { where: [byHive, { column: "done", eq: false }], orderBy: order }),
      ).toEqual([b, c]);
      expect(
        await ids("task", { where: [byHive, { column: "done", eq: true }], orderBy: order }),
      ).toEqual([a]);
      expect(
        await ids("task", { where: [byHive, { column: "due_at", eq: null }], orderBy: order }),
      ).toEqual([a, b, c]);
    });

    it("shows personal rows only to their owner", async () => {
      const hive = freshId();
      const [mine, theirs, shared] = [freshId(), freshId(), freshId()];
      await apply(
        up("task", mine, "user:me", 2000, { title: "mine", hive_id: hive }),
        up("task", theirs, "user:other", 2000, { title: "theirs", hive_id: hive }),
        up("task", shared, apiary, 2000, { title: "shared", hive_id: hive, apiary_id: apiary }),
      );
      const found = await ids("task", {
        where: [{ column: "hive_id", eq: hive }, { readableBy: "me" }],
        orderBy: [{ column: "title" }],
      });
      expect(found).toEqual([mine, shared]);
    });

    it("sorts text by code point, folding A-Z only when asked", async () => {
      const names = ["b", "B", "a", "Ä", "ä", "Z", "_", "😀", "\uffff"];
      const byName = new Map<string, string>();
      const changes = names.map((name) => {
        const id = freshId();
        byName.set(id, name);
        return up("hive", id, apiary, 2000, { apiary_id: apiary, name, note: "sorted" });
      });
      await apply(...changes);
      const names_ = async (fold: boolean) =>
        (
          await ids("hive", {
            where: [{ column: "note", eq: "sorted" }],
            orderBy: [
              { column: "name", ...(fold ? { fold: "ascii" as const } : {}) },
              { column: "id" },
            ],
          })
        ).map((id) => byName.get(id));
      expect(await names_(false)).toEqual(["B", "Z", "_", "a", "b", "Ä", "ä", "\uffff", "😀"]);
      // Folded, "b" and "B" are equal (the id decides); non-ASCII letters are not folded.
      expect((await names_(true)).map((n) => n?.replace(/[A-Z]/g, (c) => c.toLowerCase()))).toEqual(
        ["_", "a", "b", "b", "z", "Ä", "ä", "\uffff", "😀"],
      );
    });

    it("orders with coalesce, a literal for null, nulls placement, descending and stamps", async () => {
      const hive = freshId();
      const [q1, q2, q3] = [freshId(), freshId(), freshId()];
      await apply(
        up("queen", q1, apiary, 2000, { hive_id: hive, year: 2024, created_at: t(5) }),
        up("queen", q2, apiary, 2000, {
          hive_id: hive,
          year: 2025,
          introduced_at: t(9),
          created_at: t(1),
        }),
        up("queen", q3, apiary, 2000, {
          hive_id: hive,
          year: 2026,
          introduced_at: t(7),
          created_at: t(8),
        }),
      );
      expect(
        await ids("queen", {
          where: [{ column: "hive_id", eq: hive }],
          orderBy: [
            { column: "introduced_at", orElse: "created_at", desc: true },
            { column: "id" },
          ],
        }),
      ).toEqual([q2, q3, q1]);
      // introduced_at: null sorts last ascending, first descending, or as told.
      const byIntro = (desc: boolean, nulls?: "first" | "last") =>
        ids("queen", {
          where: [{ column: "hive_id", eq: hive }],
          orderBy: [{ column: "introduced_at", desc, ...(nulls ? { nulls } : {}) }],
        });
      expect(await byIntro(false)).toEqual([q3, q2, q1]);
      expect(await byIntro(true)).toEqual([q1, q2, q3]);
      expect(await byIntro(false, "first")).toEqual([q1, q3, q2]);
      expect(await byIntro(true, "last")).toEqual([q2, q3, q1]);

      const [a, b, c] = [freshId(), freshId(), freshId()];
      await apply(
        up("task", a, apiary, 3000, { title: "a", hive_id: hive, done: true }),
        up("task", b, apiary, 2000, { title: "b", hive_id: hive }),
        up("task", c, apiary, 4000, { title: "c", hive_id: hive, done: false }),
      );
      const tasks = (orderBy: ListQuery["orderBy"]) =>
        ids("task", { where: [{ column: "hive_id", eq: hive }], orderBy });
      expect(
        await tasks([
          { column: "done", ifNull: false },
          { column: "title", desc: true },
        ]),
      ).toEqual([c, b, a]);
      expect(await tasks([{ column: "title", stamp: true, desc: true }])).toEqual([c, a, b]);
    });

    it("pages by id after a given one (keyset), deleted rows only when asked", async () => {
      const hive = freshId();
      const made = Array.from({ length: 5 }, () => freshId()).sort();
      await apply(
        ...made.map((id, i) =>
          up("inspection", id, apiary, 2000, { hive_id: hive, date: t(i + 1) }),
        ),
        del("inspection", made[2] ?? "", apiary, 2001),
      );
      const page = (afterId: string, evenDeleted = false) =>
        store.read((r) =>
          r.list("inspection", {
            where: [{ column: "hive_id", eq: hive }],
            orderBy: [{ column: "id" }],
            afterId,
            limit: 2,
            ...(evenDeleted ? { evenDeleted } : {}),
          }),
        );
      const first = await page("");
      expect(first.rows.map((r) => r.id)).toEqual([made[0], made[1]]);
      expect(first.total).toBe(2);
      const second = await page(made[1] ?? "");
      expect(second.rows.map((r) => r.id)).toEqual([made[3], made[4]]);
      expect((await page(made[4] ?? "")).rows).toEqual([]);
      const all = await page(made[1] ?? "", true);
      expect(all.rows.map((r) => [r.id, r.deleted])).toEqual([
        [made[2], true],
        [made[3], false],
      ]);
      // Another order with an id window: the window filters, the order sorts.
      const dated = await store.read((r) =>
        r.list("inspection", {
          where: [{ column: "hive_id", eq: hive }],
          orderBy: [{ column: "date", desc: true }, { column: "id" }],
          afterId: made[0] ?? "",
        }),
      );
      expect(dated.rows.map((r) => r.id)).toEqual([made[4], made[3], made[1]]);
    });

    it("pages with offset and limit and counts every match", async () => {
      const hive = freshId();
      const made = Array.from({ length: 7 }, (_, i) => ({ id: freshId(), day: i + 1 }));
      await apply(
        ...made.map((m) => up("inspection", m.id, apiary, 2000, { hive_id: hive, date: t(m.day) })),
      );
      const page = await store.read((r) =>
        r.list("inspection", {
          where: [{ column: "hive_id", eq: hive }],
          orderBy: [
            { column: "date", desc: true },
            { column: "id", desc: true },
          ],
          offset: 2,
          limit: 3,
        }),
      );
      expect(page.total).toBe(7);
      expect(page.rows.map((r) => r.id)).toEqual([made[4]?.id, made[3]?.id, made[2]?.id]);
    });

    it("windows lists ordered by date, ties broken by the other terms, with totals of live rows", async () => {
      const hive = freshId();
      const [a, b, c, d, e, f, g, h, x] = Array.from({ length: 9 }, () => freshId()) as [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
      ];
      const insp = (id: string, at: number, payload: Values) =>
        up("inspection", id, apiary, at, { hive_id: hive, ...payload });
      await apply(
        insp(a, 2000, { date: t(5), created_at: t(1) }),
        insp(b, 2000, { date: t(5), created_at: t(3) }),
        insp(c, 2000, { date: t(5), created_at: t(2) }),
        insp(d, 2000, { date: t(4), created_at: t(1) }),
        insp(e, 2000, { date: t(6), created_at: t(1) }),
        insp(f, 2000, { date: t(5), created_at: t(9) }),
        del("inspection", f, apiary, 2001),
        // Partial: no date yet.
        insp(g, 2000, { note: "partial" }),
        insp(h, 2000, { date: t(3) }),
        insp(x, 2000, { date: t(5) }),
      );
      // Orders end with id (ties without one are in no defined order in SQL).
      const orders: [ListQuery["orderBy"], string[]][] = [
        [
          [
            { column: "date", desc: true },
            { column: "created_at", desc: true },
            { column: "id", desc: true },
          ],
          [e, x, b, c, a, d, h],
        ],
        [
          [
            { column: "date", desc: true },
            { column: "id", desc: true },
          ],
          [e, x, c, b, a, d, h],
        ],
        [
          [{ column: "date" }, { column: "id" }],
          [h, d, a, b, c, x, e],
        ],
        [
          [{ column: "date", desc: true }, { column: "id" }],
          [e, a, b, c, x, d, h],
        ],
      ];
      const byHive = [{ column: "hive_id", eq: hive }] as const;
      for (const [orderBy, expected] of orders) {
        expect(await ids("inspection", { where: byHive, orderBy })).toEqual(expected);
        for (let offset = 0; offset <= 8; offset++) {
          for (const limit of [1, 2, 3, 50]) {
            const page = await store.read((r) =>
              r.list("inspection", { where: byHive, orderBy, offset, limit }),
            );
            expect({
              offset,
              limit,
              ids: page.rows.map((row) => row.id),
              total: page.total,
            }).toEqual({ offset, limit, ids: expected.slice(offset, offset + limit), total: 7 });
          }
        }
        // Every hive: each window is the slice of the whole list.
        const whole = await store.read((r) => r.list("inspection", { orderBy }));
        for (const [offset, limit] of [
          [0, 3],
          [2, 5],
          [whole.total - 2, 5],
        ] as const) {
          const page = await store.read((r) => r.list("inspection", { orderBy, offset, limit }));
          expect(page.total).toBe(whole.total);
          expect(page.rows).toEqual(whole.rows.slice(offset, offset + limit));
        }
      }
    });

    it("reads the latest timestamp of live rows per value (and counts them)", async () => {
      const [h1, h2, h3, h4] = [freshId(), freshId(), freshId(), freshId()];
      const [i1, i2, i3, i4, i5, i6] = Array.from({ length: 6 }, () => freshId()) as [
        string,
        string,
        string,
        string,
        string,
        string,
      ];
      await apply(
        up("inspection", i1, apiary, 2000, { hive_id: h1, date: t(2) }),
        up("inspection", i2, apiary, 2000, { hive_id: h1, date: t(7) }),
        up("inspection", i3, apiary, 2000, { hive_id: h1, date: t(9) }),
        del("inspection", i3, apiary, 2001),
        up("inspection", i4, apiary, 2000, { hive_id: h2, date: t(4) }),
        up("inspection", i5, apiary, 2000, { hive_id: h4, date: t(8) }),
        del("inspection", i5, apiary, 2001),
        // Partial (no date): not a row yet.
        up("inspection", i6, apiary, 2000, { hive_id: h2 }),
      );
      const latest = await store.read((r) =>
        r.maxBy("inspection", "hive_id", [h1, h2, h3, h4, h1], "date"),
      );
      expect(Object.fromEntries(latest)).toEqual({ [h1]: t(7), [h2]: t(4) });
      const counts = await store.read((r) => r.countBy("inspection", "hive_id", [h1, h2, h3, h4]));
      expect(Object.fromEntries(counts)).toEqual({ [h1]: 2, [h2]: 1 });
      expect((await store.read((r) => r.maxBy("inspection", "hive_id", [], "date"))).size).toBe(0);
      await expect(
        store.read((r) => r.maxBy("inspection", "hive_id", [h1], "note")),
      ).rejects.toThrow("not a timestamp");
    });

    it("counts live rows per value", async () => {
      const [x, y, none] = [freshId(), freshId(), freshId()];
      const h = [freshId(), freshId(), freshId(), freshId()] as const;
      await apply(
        up("apiary", x, x, 2000, { name: "X" }),
        up("apiary", y, y, 2000, { name: "Y" }),
        up("hive", h[0], x, 2000, { apiary_id: x, name: "1" }),
        up("hive", h[1], x, 2000, { apiary_id: x, name: "2" }),
        up("hive", h[2], y, 2000, { apiary_id: y, name: "3" }),
        up("hive", h[3], y, 2000, { apiary_id: y, name: "4" }),
        del("hive", h[3], y, 2001),
      );
      const counts = await store.read((r) => r.countBy("hive", "apiary_id", [x, y, none]));
      expect(Object.fromEntries(counts)).toEqual({ [x]: 2, [y]: 1 });
    });
  });
}
