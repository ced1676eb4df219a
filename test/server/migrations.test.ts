import { createHash } from "node:crypto";
import { entities, type Hlc } from "@hivekeep/client-core/core";
import { decodePullResponse } from "@hivekeep/client-core/protocol";
import { migrate, openPostgres } from "@hivekeep/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadMigrations } from "../../server/src/db/migrate.ts";
import {
  type HeadColumns,
  readFeed,
  readFeedPage,
  readWirePage,
} from "../../server/src/store/feed.ts";
import { rowStateFromDb } from "../../server/src/store/row-state.ts";
import { packClock } from "../../server/src/store/stored-clock.ts";
import {
  createScratchDatabase,
  databaseKinds,
  type ScratchDatabase,
} from "../support/databases.ts";
import { protoChangeHead } from "../support/feed-wire.ts";
import { templatePglite } from "../support/pglite-template.ts";

const sqlTypes: Record<string, string> = {
  text: "text",
  float: "double precision",
  int: "integer",
  bool: "boolean",
  enum: "integer",
  timestamp: "timestamp with time zone",
  id: "text",
  orset: "jsonb",
};

describe.each(databaseKinds)("migrations on %s", (kind) => {
  let scratch: ScratchDatabase | undefined;
  let db: Awaited<ReturnType<typeof templatePglite>>;
  beforeAll(async () => {
    if (kind === "postgres") {
      scratch = await createScratchDatabase();
      db = await openPostgres(scratch.url);
    } else {
      db = await templatePglite("new");
    }
  });
  afterAll(async () => {
    await db?.close();
    await scratch?.drop();
  });

  it("applies every migration once and records it", async () => {
    const first = await migrate(db);
    expect(first).toContain(1);
    expect(await migrate(db)).toEqual([]);
    const rows = await db.query<{ version: number }>("select version from schema_migrations");
    expect(rows.map((r) => r.version)).toEqual(first);
  });

  it("applies migrations once when several processes start together", async () => {
    const results = await Promise.all([migrate(db), migrate(db), migrate(db)]);
    expect(results.flat()).toEqual([]);
  });

  it("has a table with every registry column, of the registry's type", async () => {
    for (const spec of Object.values(entities)) {
      const cols = await db.query<{ column_name: string; data_type: string }>(
        `select column_name, data_type from information_schema.columns
         where table_schema = current_schema() and table_name = $1`,
        [spec.table],
      );
      const types = Object.fromEntries(cols.map((c) => [c.column_name, c.data_type]));
      for (const [col, colSpec] of Object.entries(spec.columns)) {
        expect(types[col], `${spec.table}.${col}`).toBe(sqlTypes[colSpec.type]);
      }
      for (const meta of ["organization_id", "id", "scope_id", "clock", "deleted", "complete"]) {
        expect(types[meta], `${spec.table}.${meta}`).toBeDefined();
      }
      // Nothing in the table that the registry does not know.
      const known = new Set([
        ...Object.keys(spec.columns),
        "organization_id",
        "id",
        "scope_id",
        "clock",
        "deleted",
        "complete",
      ]);
      expect(
        Object.keys(types).filter((c) => !known.has(c)),
        spec.table,
      ).toEqual([]);
    }
  });

  it("leads every index of the replicated tables and the feed with organization_id", async () => {
    const tables = [...Object.values(entities).map((s) => s.table), "changes"];
    const rows = await db.query<{ indexname: string; indexdef: string }>(
      `select indexname, indexdef from pg_indexes
       where schemaname = current_schema() and tablename in (select jsonb_array_elements_text($1::text::jsonb))`,
      [JSON.stringify(tables)],
    );
    expect(rows.length).toBeGreaterThan(tables.length);
    for (const r of rows) expect(r.indexdef, r.indexname).toMatch(/\(organization_id[,)]/);
  });

  it("rolls back a failing migration entirely", async () => {
    await expect(
      migrate(db, [
        {
          version: 900,
          name: "broken",
          sql: "create table t900 (x int); select nope from nowhere;",
        },
      ]),
    ).rejects.toThrow();
    const t = await db.query("select to_regclass('t900') as t");
    expect(t[0]?.t).toBeNull();
    const rec = await db.query("select 1 from schema_migrations where version = 900");
    expect(rec).toEqual([]);
  });

  it("005 gives the feed rows already there their Change's bytes: an upgraded server serves the same Pulls", async () => {
    const own = scratch ? await createScratchDatabase() : undefined;
    const old = own ? await openPostgres(own.url) : await templatePglite("new");
    try {
      const upTo = (version: number) => loadMigrations().filter((m) => m.version <= version);
      await migrate(old, upTo(3));
      const insert = (seq: number, authorId: string, op: number) =>
        old.query(
          `insert into changes (organization_id, seq, entity, entity_id, scope_id, op, payload, hlc, author_id)
           values ('o', $1, 'apiary', 'a1', 'a1', $2, '{"name":"Höfe 🐝"}', '000001767225600000:00001:dev-a', $3)`,
          [seq, op, authorId],
        );
      // A row written before 004, one written under 004 (wire_head), and in
      // another tenant more rows than the backfill's batch.
      await insert(1, "u1", 1);
      expect(await migrate(old, upTo(4))).toEqual([4]);
      await insert(2, "", 2);
      await old.query(
        `insert into changes (organization_id, seq, entity, entity_id, scope_id, op, payload, hlc, author_id)
         select 'p', g, 'hive', 'h' || g, 'a1', 1, '{"name":"Hive ' || g || '"}',
           '000001767225600000:' || lpad(g::text, 5, '0') || ':dev-b', 'u2'
         from generate_series(1, 6001) as g`,
      );
      expect(await migrate(old, upTo(5))).toEqual([5]);
      await migrate(old); // and every later one, as an upgraded server runs them

      const rows = await readFeed(old, "o", "u1", 0, 10);
      expect(rows).toEqual(
        [1, 2].map((seq) => ({
          seq,
          entity: "apiary",
          entityId: "a1",
          scopeId: "a1",
          op: seq,
          payloadJson: '{"name":"Höfe 🐝"}',
          hlc: "000001767225600000:00001:dev-a",
          authorId: seq === 1 ? "u1" : "",
        })),
      );
      // Every row has the bytes the write path stores for it, and the binary
      // Pull reads the same changes as the JSON one.
      for (const [tenant, user, count] of [
        ["o", "u1", 2],
        ["p", "u2", 6001],
      ] as const) {
        const stored = await old.query<HeadColumns & { change_head: string }>(
          `select entity, entity_id, scope_id, op, hlc, author_id, change_head from changes
           where organization_id = $1 order by seq`,
          [tenant],
        );
        expect(stored).toHaveLength(count);
        for (const r of stored) {
          expect(Buffer.from(r.change_head, "base64")).toEqual(Buffer.from(protoChangeHead(r)));
        }
        const page = await readWirePage(old, tenant, user, 0, 7000);
        expect(page.count).toBe(count);
        expect(decodePullResponse(Buffer.concat(page.chunks)).changes).toEqual(
          (await readFeed(old, tenant, user, 0, 7000)).map(({ seq, ...change }) => change),
        );
      }
      await expect(
        old.query(
          `insert into changes (organization_id, seq, entity, entity_id, scope_id, op, payload, hlc, author_id)
           values ('o', 3, 'apiary', 'a1', 'a1', 1, '{}', '000001767225600000:00002:dev-a', '')`,
        ),
      ).rejects.toThrow(/change_head/);
    } finally {
      await old.close();
      await own?.drop();
    }
  });

  it("009 gives the feed rows already there that add photos their reference form: a Pull by reference reads no photo", async () => {
    const own = scratch ? await createScratchDatabase() : undefined;
    const old = own ? await openPostgres(own.url) : await templatePglite("new");
    try {
      await migrate(
        old,
        loadMigrations().filter((m) => m.version < 9),
      );
      const photo = `data:image/jpeg;base64,${Buffer.from("a photo of comb").toString("base64")}`;
      const ref = `hkphoto:${createHash("sha256").update(photo).digest("base64url")}`;
      const payloads = [
        // An inspection that adds a photo (and one already a reference), one without photos,
        // a hive whose payload says "add" in a name (no photo sets), and a photo removed.
        { entity: "inspection", payload: { note: "n", photo_keys: { add: [photo, ref] } } },
        { entity: "inspection", payload: { note: "no photo" } },
        { entity: "hive", payload: { name: '"add"' } },
        {
          entity: "inspection",
          payload: { photo_keys: { remove: ["000001767225600000:00001:dev-a"] } },
        },
      ];
      for (const [i, { entity, payload }] of payloads.entries()) {
        await old.query(
          `insert into changes (organization_id, seq, entity, entity_id, scope_id, op, payload, hlc,
             author_id, change_head)
           values ('o', $1, $2, $4, 'a1', 1, $3, '000001767225600000:00001:dev-a', 'u1', '')`,
          [i + 1, entity, JSON.stringify(payload), `x${i}`],
        );
      }
      expect(await migrate(old)).toContain(9);
      const stored = await old.query<{ seq: number | string; payload_refs: string | null }>(
        "select seq, payload_refs from changes where organization_id = 'o' order by seq",
      );
      expect(stored.map((r) => r.payload_refs)).toEqual([
        JSON.stringify({ note: "n", photo_keys: { add: [ref, ref] } }),
        null,
        null,
        null,
      ]);
      // A Pull by reference sends the stored form; the contract's Pull the photos.
      const page = await readFeedPage(old, "o", "u1", 0, 10, { photoRefs: true });
      expect(page.rows[0]?.payloadJson).toBe(stored[0]?.payload_refs);
      const plain = await readFeedPage(old, "o", "u1", 0, 10);
      expect(plain.rows[0]?.payloadJson).toContain(photo);
    } finally {
      await old.close();
      await own?.drop();
    }
  });

  it("008 stamps the feed rows already there: a windowed Pull leaves out today's old readings, whole", async () => {
    const own = scratch ? await createScratchDatabase() : undefined;
    const old = own ? await openPostgres(own.url) : await templatePglite("new");
    try {
      await migrate(
        old,
        loadMigrations().filter((m) => m.version < 8),
      );
      const a = "000001767225600000:00001:dev-a" as Hlc;
      const b = "000001767225700000:00002:dev-a" as Hlc;
      // r1: an old reading (created, then weighed again); v1: an old reading made a visit;
      // e1, e2: their INSPECTION events; h1: a hive.
      const inspection = (id: string, note: string | null, stamps: Record<string, Hlc>) =>
        old.query(
          `insert into inspections (organization_id, id, hive_id, date, weight_kg, note, scope_id,
             clock, deleted, complete)
           values ('o', $1, 'h1', '2026-01-01T10:00:00Z', 42.5, $2, 'a1', $3::text::jsonb, false, true)`,
          [id, note, JSON.stringify(packClock(stamps))],
        );
      await inspection("r1", null, { hive_id: a, date: a, weight_kg: b });
      await inspection("v1", "queen seen", { hive_id: a, date: a, weight_kg: a, note: b });
      for (const [id, ref] of [
        ["e1", "r1"],
        ["e2", "v1"],
      ]) {
        await old.query(
          `insert into events (organization_id, id, type, hive_id, ref_entity, ref_id, date, scope_id,
             clock, deleted, complete)
           values ('o', $1, 1, 'h1', 'inspection', $2, '2026-01-01T10:00:00Z', 'a1', $3::text::jsonb, false, true)`,
          [id, ref, JSON.stringify(packClock({ type: a, date: a }))],
        );
      }
      const feed: [number, string, string, string][] = [
        [1, "hive", "h1", '{"name":"H"}'],
        [
          2,
          "inspection",
          "r1",
          '{"hive_id":"h1","date":"2026-01-01T10:00:00.000Z","weight_kg":42}',
        ],
        [3, "event", "e1", '{"type":1,"ref_entity":"inspection","ref_id":"r1"}'],
        [
          4,
          "inspection",
          "v1",
          '{"hive_id":"h1","date":"2026-01-01T10:00:00.000Z","weight_kg":42.5}',
        ],
        [5, "event", "e2", '{"type":1,"ref_entity":"inspection","ref_id":"v1"}'],
        [6, "inspection", "r1", '{"weight_kg":42.5}'],
        [7, "inspection", "v1", '{"note":"queen seen"}'],
      ];
      for (const [seq, entity, id, payload] of feed) {
        await old.query(
          `insert into changes (organization_id, seq, entity, entity_id, scope_id, op, payload, hlc,
             author_id, change_head)
           values ('o', $1, $2, $3, 'a1', 1, $4, $5, 'u1', '')`,
          [seq, entity, id, payload, seq < 6 ? a : b],
        );
      }
      await old.query("update organizations set feed_seq = 7 where id = 'o'").catch(() => {});
      expect(await migrate(old)).toContain(8);
      const stamped = await old.query<{
        seq: number;
        held_until: Date | null;
        with_state: boolean;
      }>(
        "select seq, held_until, with_state from changes where organization_id = 'o' order by seq",
      );
      const jan1 = Date.parse("2026-01-01T10:00:00Z");
      expect(
        stamped.map((r) => [
          Number(r.seq),
          r.held_until && new Date(r.held_until).getTime(),
          r.with_state,
        ]),
      ).toEqual([
        [1, null, false],
        [2, jan1, false],
        [3, jan1, false],
        [4, null, false],
        [5, null, false],
        [6, jan1, true],
        [7, null, true],
      ]);
      // A windowed Pull leaves the reading and its event out, and sends the visit's whole state
      // after its later change.
      const page = await readFeedPage(old, "o", "u1", 0, 100, {
        cutoffMs: Date.parse("2026-06-01T00:00:00Z"),
      });
      // The four changes, then v1's state (two stamps) and its event's.
      expect(page.rows.map((r) => r.seq)).toEqual([1, 4, 5, 7, 7, 7, 7]);
      expect(
        page.rows
          .slice(4)
          .map((r) => `${r.entity}/${r.entityId}`)
          .sort(),
      ).toEqual(["event/e2", "inspection/v1", "inspection/v1"].sort());
    } finally {
      await old.close();
      await own?.drop();
    }
  });

  it("003 regroups stored clocks by stamp without changing any row's state", async () => {
    const own = scratch ? await createScratchDatabase() : undefined;
    const old = own ? await openPostgres(own.url) : await templatePglite("new");
    try {
      await migrate(
        old,
        loadMigrations().filter((m) => m.version < 3),
      );
      const a = "000001767225600000:00001:dev-a";
      const b = "000001767225700000:00002:dev-b";
      const perColumn = { name: a, address: a, lat: b, lng: a, _deleted: b };
      await old.query(
        `insert into apiaries (organization_id, id, name, address, lat, lng, scope_id, clock, deleted, complete)
         values ('o', 'a1', 'Home', '', 1.5, 2.5, 'a1', $1::text::jsonb, true, false),
                ('o', 'a2', null, null, null, null, 'a2', '{}', false, false)`,
        [JSON.stringify(perColumn)],
      );
      expect(await migrate(old)).toContain(3);
      const types = await old.query<{ data_type: string }>(
        `select distinct data_type from information_schema.columns
         where table_schema = current_schema() and column_name = 'clock'`,
      );
      expect(types.map((t) => t.data_type)).toEqual(["json"]);
      const rows = await old.query("select * from apiaries order by id");
      expect(rows.map((r) => r.clock)).toEqual([
        { [a]: ["address", "lng", "name"], [b]: ["_deleted", "lat"] },
        {},
      ]);
      expect(rowStateFromDb(rows[0] ?? {}, entities.apiary)).toEqual({
        values: { name: "Home", address: "", lat: 1.5, lng: 2.5 },
        clock: { name: a, address: a, lat: b, lng: a, _deleted: b },
        deleted: true,
      });
    } finally {
      await old.close();
      await own?.drop();
    }
  });
});
