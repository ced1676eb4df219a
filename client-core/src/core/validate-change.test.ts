import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Change } from "./change.ts";
import { maxInt32, minInt32, parseColumnValue } from "./column-value.ts";
import type { ColumnSpec, EntityName } from "./entities.ts";
import { entities, entityNames, maxPhotoBytes, photoPrefix, userScope } from "./entities.ts";
import type { Hlc } from "./hlc.ts";
import { formatHlc } from "./hlc.ts";
import { isStorableText } from "./utf8.ts";
import type { CheckContext, Rejection, RowFacts, WireChange } from "./validate-change.ts";
import { batchChecker, checkChange, parseWireChange } from "./validate-change.ts";

const now = Date.UTC(2026, 0, 1);
const user = "0190f5a2-7c1e-7000-8000-00000000000a";
const otherUser = "0190f5a2-7c1e-7000-8000-00000000000b";
const apiary = "0190f5a2-7c1e-7000-8000-0000000000a1";
const otherApiary = "0190f5a2-7c1e-7000-8000-0000000000a2";
const hive = "0190f5a2-7c1e-7000-8000-0000000000b1";
const otherHive = "0190f5a2-7c1e-7000-8000-0000000000b2";
const index = 7;

const hlcAt = (ms: number, node = "dev-a"): Hlc => formatHlc({ ms, counter: 0, node });

const wire = (payload: unknown, over: Partial<WireChange> = {}): WireChange => ({
  entity: "hive",
  entityId: hive,
  scopeId: apiary,
  op: 1,
  payloadJson: JSON.stringify(payload),
  hlc: hlcAt(now),
  ...over,
});

const parse = (w: WireChange) => parseWireChange(w, user, index);

/** The parsed payload; fails the test when the change is rejected. */
function accepted(w: WireChange): Change {
  const result = parse(w);
  if ("error" in result) throw new Error(`unexpected rejection: ${result.error.reason}`);
  return result.value;
}

/** The rejection; fails the test when the change is accepted. */
function rejected(w: WireChange): Rejection {
  const result = parse(w);
  if (!("error" in result)) throw new Error("expected a rejection");
  expect(result.error.index).toBe(index);
  expect(result.error.code).toBe("invalid_argument");
  return result.error;
}

/** The parsed value of a single column of `entity`. */
const parsedValue = (entity: EntityName, column: string, value: unknown): unknown =>
  accepted(wire({ [column]: value }, { entity })).payload[column];
const reasonFor = (entity: EntityName, column: string, value: unknown): string =>
  rejected(wire({ [column]: value }, { entity })).reason;

const change = (over: Partial<Change> = {}): Change => ({
  entity: "hive",
  entityId: hive,
  scopeId: apiary,
  op: "upsert",
  payload: {},
  hlc: hlcAt(now),
  authorId: user,
  ...over,
});

const context = (over: Partial<CheckContext> = {}): CheckContext => ({
  nowMs: now,
  caller: { userId: user, demo: false },
  existing: undefined,
  exists: () => true,
  apiaryScopeWritable: (scopeId) => scopeId === apiary || scopeId === otherApiary,
  ...over,
});

const stored = (values: Record<string, unknown>, over: Partial<RowFacts> = {}): RowFacts => ({
  values,
  clock: Object.fromEntries(Object.keys(values).map((c) => [c, hlcAt(now - 10_000, "dev-z")])),
  deleted: false,
  complete: true,
  scopeId: apiary,
  ...over,
});

const check = (c: Change, over: Partial<CheckContext> = {}): Rejection[] =>
  checkChange(c, index, context(over));

/** The single rejection of a check, with its code. */
function oneRejection(c: Change, over: Partial<CheckContext> = {}): Rejection {
  const rejections = check(c, over);
  expect(rejections).toHaveLength(1);
  const [r] = rejections as [Rejection];
  expect(r.index).toBe(index);
  return r;
}

describe("parseWireChange: the change", () => {
  it("decodes a valid upsert, with the author set by the server, not the wire", () => {
    const w = { ...wire({ name: "Hive 1", boxes: 2 }), authorId: "mallory" };
    expect(parse(w)).toEqual({
      value: {
        entity: "hive",
        entityId: hive,
        scopeId: apiary,
        op: "upsert",
        payload: { name: "Hive 1", boxes: 2 },
        hlc: hlcAt(now),
        authorId: user,
      },
    });
  });

  it("decodes op 2 as a delete with an empty payload; an omitted payloadJson reads as {}", () => {
    expect(accepted(wire({}, { op: 2 }))).toMatchObject({ op: "delete", payload: {} });
    expect(accepted(wire({}, { op: 2, payloadJson: "" }))).toMatchObject({ payload: {} });
  });

  it.each([0, 3, -1])("rejects op %d", (op) => {
    expect(rejected(wire({}, { op })).reason).toContain("op must be 1 (upsert) or 2 (delete)");
  });

  it("rejects an entity that is not in the registry, naming it", () => {
    expect(rejected(wire({}, { entity: "frame" })).reason).toContain('entity "frame" is unknown');
    expect(rejected(wire({}, { entity: "hives" })).reason).toContain("unknown");
  });

  it("accepts UUIDs and ids of up to 100 of [A-Za-z0-9_-] as entityId", () => {
    for (const entityId of [hive, "A-z_09", "x".repeat(100)]) {
      expect(accepted(wire({}, { entityId })).entityId).toBe(entityId);
    }
  });

  it.each([
    ["empty", ""],
    ["101 characters", "x".repeat(101)],
    ["a slash", "a/b"],
    ["a space", "a b"],
    ["a colon", "user:x"],
  ])("rejects an entityId that is %s", (_, entityId) => {
    expect(rejected(wire({}, { entityId })).reason).toContain("entityId");
  });

  it("accepts an apiary id or user:<id> as scopeId and rejects other shapes", () => {
    expect(accepted(wire({}, { scopeId: userScope(user) })).scopeId).toBe(`user:${user}`);
    for (const scopeId of ["", "user:", "apiary 1", `user:${user}:x`]) {
      expect(rejected(wire({}, { scopeId })).reason).toContain("scopeId");
    }
  });

  it("rejects a malformed hlc, saying what is wrong", () => {
    const reason = rejected(wire({}, { hlc: "1763772000000:0:dev-a" })).reason;
    expect(reason).toContain("hlc");
    expect(reason).toContain("15 digits");
  });

  it.each([
    ["not JSON", "{name:"],
    ["an array", "[]"],
    ["null", "null"],
    ["a string", '"x"'],
  ])("rejects a payloadJson that is %s", (_, payloadJson) => {
    expect(rejected(wire({}, { payloadJson })).reason).toContain("payloadJson");
  });

  it("rejects a delete that carries columns", () => {
    expect(rejected(wire({ name: "x" }, { op: 2 })).reason).toContain(
      "a delete must have an empty payload",
    );
  });

  it.each(["organization_id", "clock", "deleted", "scope_id", "id"])(
    "rejects the server-kept column %s in a payload",
    (column) => {
      expect(rejected(wire({ [column]: "x" })).reason).toContain(`${column} is kept by the server`);
    },
  );

  it.each(["colour", "apiaryId", "constructor", "toString", "__proto__"])(
    "rejects the unknown column %s",
    (column) => {
      const payloadJson = `{${JSON.stringify(column)}: "x"}`;
      expect(rejected(wire({}, { payloadJson })).reason).toContain(
        `hive has no column ${JSON.stringify(column)}`,
      );
    },
  );

  it("rejects a column of another entity", () => {
    expect(reasonFor("apiary", "hive_id", hive)).toContain('apiary has no column "hive_id"');
  });
});

describe("parseWireChange: column types", () => {
  it("text: accepts strings up to 10 000 characters, rejects longer ones and non-strings", () => {
    expect(parsedValue("hive", "note", "x".repeat(10_000))).toHaveLength(10_000);
    expect(reasonFor("hive", "note", "x".repeat(10_001))).toContain("hive.note must be at most");
    expect(reasonFor("hive", "note", 1)).toBe("hive.note must be a string");
    expect(reasonFor("hive", "note", null)).toBe("hive.note must be a string");
  });

  it("text: rejects lone surrogates and U+0000, which the database cannot store", () => {
    for (const payloadJson of ['{"note":"a\\ud83d"}', '{"note":"a\\u0000b"}']) {
      expect(rejected(wire({}, { payloadJson })).reason).toContain("hive.note must be well-formed");
    }
    expect(parsedValue("hive", "note", "🐝")).toBe("🐝");
  });

  it("nonEmpty text: rejects a blank name, accepts a name and an empty optional text", () => {
    expect(reasonFor("hive", "name", "  ")).toBe("hive.name is required and cannot be blank");
    expect(reasonFor("apiary", "name", "")).toContain("apiary.name is required");
    expect(parsedValue("apiary", "name", "Home")).toBe("Home");
    expect(parsedValue("hive", "note", "")).toBe("");
  });

  it("float: accepts finite numbers, turns -0 into 0, rejects 1e400 and strings", () => {
    expect(parsedValue("apiary", "lat", 47.5)).toBe(47.5);
    expect(Object.is(parsedValue("apiary", "lat", -0), 0)).toBe(true);
    const infinity = rejected(wire({}, { entity: "apiary", payloadJson: '{"lat":1e400}' }));
    expect(infinity.reason).toBe("apiary.lat must be a finite number");
    for (const s of ["Infinity", "NaN", "1.5"]) {
      expect(reasonFor("apiary", "lat", s)).toBe("apiary.lat must be a finite number");
    }
  });

  it("int: accepts the int32 bounds, rejects one beyond and fractions", () => {
    // Every int column of the registry has a narrower range now (hive.boxes 0 … 20, issue 24):
    // the int32 bounds are those of the type, shown on an int column without a range.
    const int: ColumnSpec = { type: "int" };
    expect(parseColumnValue(int, minInt32, false)).toEqual({ value: minInt32 });
    expect(parseColumnValue(int, maxInt32, false)).toEqual({ value: maxInt32 });
    expect(Object.is(parsedValue("hive", "boxes", -0), 0)).toBe(true);
    expect(reasonFor("hive", "boxes", maxInt32 + 1)).toContain("hive.boxes must be an integer");
    expect(reasonFor("hive", "boxes", minInt32 - 1)).toContain("hive.boxes must be an integer");
    expect(reasonFor("hive", "boxes", 1.5)).toBe("hive.boxes must be an integer");
    expect(reasonFor("hive", "boxes", "2")).toBe("hive.boxes must be an integer");
  });

  it("positive: rejects 0 and -0 for queen.year and harvest.amount_kg, accepts above 0", () => {
    expect(reasonFor("queen", "year", 0)).toBe("queen.year must be greater than 0");
    expect(reasonFor("queen", "year", -0)).toBe("queen.year must be greater than 0");
    expect(reasonFor("harvest", "amount_kg", 0)).toBe("harvest.amount_kg must be greater than 0");
    expect(reasonFor("harvest", "amount_kg", -1)).toContain("greater than 0");
    expect(parsedValue("harvest", "amount_kg", 0.1)).toBe(0.1);
    expect(parsedValue("queen", "year", 2026)).toBe(2026);
  });

  it("bool: accepts booleans only", () => {
    expect(parsedValue("task", "done", false)).toBe(false);
    expect(reasonFor("task", "done", "true")).toBe("task.done must be a boolean");
    expect(reasonFor("task", "done", 1)).toBe("task.done must be a boolean");
  });

  it("enum: accepts 0 and the enum's numbers, rejects others and names", () => {
    expect(parsedValue("hive", "type", 0)).toBe(0);
    expect(parsedValue("hive", "type", 99)).toBe(99);
    for (const bad of [7, 1.5, -1, "HIVE_TYPE_DADANT"]) {
      expect(reasonFor("hive", "type", bad)).toContain("hive.type must be one of the enum numbers");
    }
  });

  it("timestamp: normalises an offset to UTC and accepts null for an optional column", () => {
    expect(parsedValue("task", "due_at", "2026-01-01T00:00:00+02:00")).toBe(
      "2025-12-31T22:00:00.000Z",
    );
    expect(parsedValue("task", "due_at", null)).toBeNull();
  });

  it.each([
    ["without a zone", "2026-01-01T00:00:00"],
    ["that does not exist", "2026-02-30T00:00:00Z"],
    ["out of range", "9999-12-31T23:00:00-02:00"],
    ["empty", ""],
    ["a number", 1_767_225_600_000],
  ])("timestamp: rejects a value %s", (_, value) => {
    expect(reasonFor("task", "due_at", value)).toContain("task.due_at ");
  });

  it("id: accepts an id, and '' as none for an optional reference", () => {
    expect(parsedValue("task", "hive_id", hive)).toBe(hive);
    expect(parsedValue("task", "hive_id", "")).toBe("");
    expect(reasonFor("task", "hive_id", "not an id")).toContain("task.hive_id must be");
    expect(reasonFor("task", "hive_id", 5)).toBe("task.hive_id must be a string id");
  });
});

describe("parseWireChange: required columns", () => {
  it("keeps a partial change that leaves required columns out, for a new row too", () => {
    expect(accepted(wire({ note: "x" })).payload).toEqual({ note: "x" });
    expect(accepted(wire({ hive_id: hive }, { entity: "harvest" })).payload).toEqual({
      hive_id: hive,
    });
  });

  it("rejects a required column that is present without a value", () => {
    expect(reasonFor("hive", "apiary_id", "")).toBe(
      "hive.apiary_id is required and cannot be empty",
    );
    expect(reasonFor("inspection", "date", null)).toBe(
      "inspection.date is required and cannot be null",
    );
    expect(reasonFor("task", "title", " ")).toBe("task.title is required and cannot be blank");
  });
});

describe("parseWireChange: photos (orset)", () => {
  const photo = (bytes: number): string => photoPrefix + "a".repeat(bytes - photoPrefix.length);
  const add = (...elements: string[]) =>
    wire({ photo_keys: { add: elements } }, { entity: "inspection" });

  it("accepts a photo of exactly 512 KiB including the prefix and rejects one byte more", () => {
    expect(accepted(add(photo(maxPhotoBytes))).payload.photo_keys).toEqual({
      add: [photo(maxPhotoBytes)],
    });
    expect(rejected(add(photo(maxPhotoBytes + 1))).reason).toBe(
      `inspection.photo_keys add[0] must be at most ${maxPhotoBytes} bytes including the prefix (has ${maxPhotoBytes + 1})`,
    );
  });

  it("counts UTF-8 bytes, not characters", () => {
    const pairs = (maxPhotoBytes - photoPrefix.length - 1) / 2; // é is 2 bytes
    expect(accepted(add(`${photoPrefix}${"é".repeat(pairs)}a`))).toBeDefined();
    expect(rejected(add(`${photoPrefix}${"é".repeat(pairs)}ab`)).reason).toContain("bytes");
  });

  it("rejects a photo that is not a data:image/ URL", () => {
    expect(rejected(add("data:image/png;base64,AA", "https://x/y.png")).reason).toBe(
      'inspection.photo_keys add[1] must start with "data:image/"',
    );
    expect(rejected(add("data:text/plain,hi")).reason).toContain("data:image/");
  });

  it("accepts a removal of HLC tags and rejects a removal naming anything else", () => {
    const tag = hlcAt(now - 1);
    const ok = wire({ photo_keys: { remove: [tag] } }, { entity: "inspection" });
    expect(accepted(ok).payload.photo_keys).toEqual({ remove: [tag] });
    const bad = wire(
      { photo_keys: { remove: ["data:image/png;base64,AA"] } },
      { entity: "inspection" },
    );
    expect(rejected(bad).reason).toBe(
      "inspection.photo_keys must be an OR-set patch: remove must hold HLC tags",
    );
  });

  it("rejects a photo_keys value that is not a patch", () => {
    for (const value of [["data:image/png;base64,AA"], "x", { put: [] }]) {
      expect(reasonFor("inspection", "photo_keys", value)).toContain(
        "inspection.photo_keys must be an OR-set patch",
      );
    }
  });
});

describe("checkChange", () => {
  it("accepts a valid change", () => {
    expect(check(change({ payload: { name: "H", apiary_id: apiary } }))).toEqual([]);
  });

  it("refuses every change of a demo session, and only says so once", () => {
    const r = oneRejection(change({ scopeId: userScope(otherUser) }), {
      caller: { userId: user, demo: true },
    });
    expect(r).toEqual({ index, code: "permission_denied", reason: "a demo session is read-only" });
  });

  it("accepts an hlc up to 60 s ahead and asks for a re-stamp beyond", () => {
    expect(check(change({ hlc: hlcAt(now + 59_000) }))).toEqual([]);
    expect(check(change({ hlc: hlcAt(now + 60_000) }))).toEqual([]);
    const r = oneRejection(change({ hlc: hlcAt(now + 61_000) }));
    expect(r.code).toBe("invalid_argument");
    expect(r.reason).toContain("61000 ms ahead of the server clock");
    expect(r.reason).toContain("re-stamp");
  });

  describe("scope", () => {
    const task = (scopeId: string, payload: Record<string, unknown> = {}): Change =>
      change({ entity: "task", entityId: "task-1", scopeId, payload });

    it("accepts a personal task in the caller's own user scope", () => {
      expect(check(task(userScope(user), { title: "Buy frames", apiary_id: "" }))).toEqual([]);
    });

    it("refuses another user's personal scope with permission_denied", () => {
      const r = oneRejection(task(userScope(otherUser)));
      expect(r.code).toBe("permission_denied");
      expect(r.reason).toContain("another user's personal scope");
    });

    it("refuses a personal scope for an entity that belongs to an apiary", () => {
      const r = oneRejection(change({ scopeId: userScope(user) }));
      expect(r.code).toBe("invalid_argument");
      expect(r.reason).toBe("a hive belongs to an apiary, not a personal scope");
    });

    it("refuses an apiary scope the caller cannot write with permission_denied", () => {
      const r = oneRejection(change({ scopeId: "someone-elses-apiary" }));
      expect(r.code).toBe("permission_denied");
      expect(r.reason).toContain("scope someone-elses-apiary is not an apiary");
    });

    it("lets a new apiary be its own scope, and nothing else", () => {
      const fresh = "0190f5a2-7c1e-7000-8000-0000000000a9";
      const create = change({ entity: "apiary", entityId: fresh, scopeId: fresh });
      expect(check({ ...create, payload: { name: "New" } })).toEqual([]);
      const r = oneRejection({ ...create, scopeId: apiary });
      expect(r.code).toBe("invalid_argument");
      expect(r.reason).toContain("scopeId must be its own id");
    });

    it("refuses a change to a row stored in another user's personal scope", () => {
      const existing = stored({ title: "theirs" }, { scopeId: userScope(otherUser) });
      const r = oneRejection(task(apiary, { done: true }), { existing });
      expect(r.code).toBe("permission_denied");
      expect(r.reason).toBe("task task-1 is another user's personal record");
      expect(oneRejection({ ...task(apiary), op: "delete" }, { existing }).code).toBe(
        "permission_denied",
      );
    });

    it("requires the scope to be the apiary_id the change sets", () => {
      expect(check(change({ payload: { apiary_id: apiary } }))).toEqual([]);
      const r = oneRejection(change({ payload: { apiary_id: otherApiary } }));
      expect(r.code).toBe("invalid_argument");
      expect(r.reason).toBe(`scopeId ${apiary} must equal apiary_id ${otherApiary}`);
      expect(oneRejection(task(userScope(user), { apiary_id: apiary })).reason).toContain(
        "must equal apiary_id",
      );
    });

    it("requires a task without apiary to live in the personal scope", () => {
      const r = oneRejection(task(apiary, { apiary_id: "" }));
      expect(r.reason).toBe(`apiary_id is empty, so scopeId must be ${userScope(user)}`);
    });
  });

  describe("references", () => {
    const known = new Set([`apiary/${apiary}`, `hive/${hive}`]);
    const exists = (entity: EntityName, id: string): boolean => known.has(`${entity}/${id}`);

    it("accepts references to rows of the tenant and '' for none", () => {
      const c = change({
        entity: "task",
        entityId: "t",
        payload: { hive_id: hive, apiary_id: apiary },
      });
      expect(check(c, { exists })).toEqual([]);
      expect(
        check(change({ entity: "task", payload: { hive_id: "" }, scopeId: userScope(user) }), {
          exists,
        }),
      ).toEqual([]);
    });

    it("rejects a reference to an unknown id, naming the column and the id", () => {
      const c = change({ entity: "inspection", entityId: "i", payload: { hive_id: otherHive } });
      const r = oneRejection(c, { exists });
      expect(r).toEqual({
        index,
        code: "invalid_argument",
        reason: `hive_id references unknown hive ${otherHive}`,
      });
    });

    it("does not re-check a reference the row already holds", () => {
      const existing = stored({ hive_id: otherHive, date: "2026-01-01T00:00:00.000Z" });
      const c = change({
        entity: "inspection",
        entityId: "i",
        payload: { hive_id: otherHive, note: "x" },
      });
      expect(check(c, { exists, existing })).toEqual([]);
    });
  });

  describe("immutable columns", () => {
    const queen = (payload: Record<string, unknown>): Change =>
      change({ entity: "queen", entityId: "q", payload });

    it("rejects a change of queen.hive_id once stored", () => {
      const existing = stored({ hive_id: hive, year: 2025 });
      const r = oneRejection(queen({ hive_id: otherHive }), { existing });
      expect(r.code).toBe("invalid_argument");
      expect(r.reason).toBe(
        `hive_id is immutable: queen q has ${hive}, the change sets ${otherHive}`,
      );
    });

    it("accepts the same value again, and any value for a row not stored yet", () => {
      const existing = stored({ hive_id: hive, year: 2025 });
      expect(check(queen({ hive_id: hive, year: 2026 }), { existing })).toEqual([]);
      expect(check(queen({ hive_id: otherHive }))).toEqual([]);
      expect(
        check(queen({ hive_id: otherHive }), {
          existing: stored({ year: 2025 }, { complete: false }),
        }),
      ).toEqual([]);
    });

    it("rejects moving a placement to another hive", () => {
      const existing = stored({ hive_id: hive, apiary_id: apiary });
      const c = change({ entity: "placement", entityId: "p", payload: { hive_id: otherHive } });
      expect(oneRejection(c, { existing }).reason).toContain("hive_id is immutable");
    });
  });

  describe("events are append-only", () => {
    const values = { type: 5, date: "2026-01-01T00:00:00.000Z", hive_id: hive };
    const event = (over: Partial<Change>): Change =>
      change({ entity: "event", entityId: "e", payload: values, ...over });

    it("accepts the create of a new event, and one that completes a partial row", () => {
      expect(check(event({}))).toEqual([]);
      const partial = stored({ hive_id: hive }, { complete: false });
      expect(
        check(event({ payload: { type: 5, date: values.date } }), { existing: partial }),
      ).toEqual([]);
    });

    it("rejects an edit of an existing event", () => {
      const r = oneRejection(event({ payload: { title: "edited" } }), { existing: stored(values) });
      expect(r).toEqual({
        index,
        code: "invalid_argument",
        reason: "events are append-only: event e exists and may only be deleted",
      });
    });

    it("accepts a tombstone of an existing event", () => {
      expect(check(event({ op: "delete", payload: {} }), { existing: stored(values) })).toEqual([]);
    });

    it("accepts a re-push of the very change that created the event", () => {
      const hlc = hlcAt(now - 5_000);
      const existing = stored(values, {
        clock: { type: hlc, date: hlc, hive_id: hlc },
      });
      expect(check(event({ hlc }), { existing })).toEqual([]);
      expect(check(event({ hlc, payload: { ...values, type: 6 } }), { existing })).toHaveLength(1);
    });
  });

  it("reports every broken rule of a change, each with the change's index", () => {
    const c = change({
      entity: "queen",
      entityId: "q",
      scopeId: "nope",
      hlc: hlcAt(now + 120_000),
      payload: { hive_id: otherHive },
    });
    const rejections = check(c, {
      existing: stored({ hive_id: hive }),
      exists: () => false,
    });
    expect(rejections.map((r) => [r.code, r.reason.split(" ")[0]])).toEqual([
      ["invalid_argument", "hlc"],
      ["permission_denied", "scope"],
      ["invalid_argument", "hive_id"],
      ["invalid_argument", "hive_id"],
    ]);
    expect(rejections.every((r) => r.index === index)).toBe(true);
  });
});

describe("photo count (orset maxElements) and removals", () => {
  const photoOf = (i: number) => `${photoPrefix}${i}`;
  const tagOf = (i: number) => hlcAt(now - 1000 + i);
  const inspection = (payload: Record<string, unknown>): Change =>
    change({ entity: "inspection", entityId: hive, payload });
  /** A stored inspection holding `n` photos, each added by its own change. */
  const holding = (n: number, value: (i: number) => string = photoOf): RowFacts =>
    stored({
      photo_keys: {
        adds: Array.from({ length: n }, (_, i) => ({ tag: tagOf(i), value: value(i) })),
        removed: [hlcAt(now - 5000)],
      },
    });

  it("refuses a patch adding more than 20 photos or naming more than 20 tags in the parse phase", () => {
    const add = Array.from({ length: 21 }, (_, i) => photoOf(i));
    expect(reasonFor("inspection", "photo_keys", { add })).toBe(
      "inspection.photo_keys holds at most 20 elements (the patch adds 21)",
    );
    expect(parsedValue("inspection", "photo_keys", { add: add.slice(1) })).toEqual({
      add: add.slice(1),
    });
    // The security review's removal of 100 000 made-up tags: refused by its length alone.
    const remove = Array.from({ length: 100_000 }, (_, i) => hlcAt(i));
    expect(reasonFor("inspection", "photo_keys", { remove })).toBe(
      "inspection.photo_keys removes at most 20 tags at once (the patch names 100000)",
    );
    expect(parsedValue("inspection", "photo_keys", { remove: remove.slice(0, 20) })).toEqual({
      remove: remove.slice(0, 20),
    });
  });

  it("counts the entries the set stores: the same photo under new stamps fills it too", () => {
    // The security review's Push: one photo re-added under a new stamp by every change.
    const same = holding(20, () => photoOf(0));
    const r = oneRejection(inspection({ photo_keys: { add: [photoOf(0)] } }), { existing: same });
    expect(r).toMatchObject({
      code: "invalid_argument",
      reason:
        "inspection.photo_keys holds at most 20 elements, an element added twice counting twice (would hold 21)",
    });
    expect(
      check(inspection({ photo_keys: { add: [photoOf(0)] } }), { existing: holding(19) }),
    ).toEqual([]);
    // A re-push of an add the set holds stores nothing new, so it passes at the cap.
    expect(
      check(
        { ...inspection({ photo_keys: { add: [photoOf(3)] } }), hlc: tagOf(3) },
        {
          existing: holding(20),
        },
      ),
    ).toEqual([]);
  });

  it("refuses an add that makes an inspection hold more than 20, accepts what does not grow it", () => {
    expect(
      check(inspection({ photo_keys: { add: [photoOf(19)] } }), { existing: holding(19) }),
    ).toEqual([]);
    const r = oneRejection(inspection({ photo_keys: { add: [photoOf(20)] } }), {
      existing: holding(20),
    });
    expect(r).toMatchObject({
      code: "invalid_argument",
      reason:
        "inspection.photo_keys holds at most 20 elements, an element added twice counting twice (would hold 21)",
    });
    // A removal, a removal with an add, and a new row with 20.
    const tag = tagOf(0);
    expect(
      check(inspection({ photo_keys: { remove: [tag], add: [photoOf(20)] } }), {
        existing: holding(20),
      }),
    ).toEqual([]);
    const twenty = Array.from({ length: 20 }, (_, i) => photoOf(i));
    expect(check(inspection({ photo_keys: { add: twenty } }))).toEqual([]);
    // A set already over the cap (written before it) may shrink, not grow.
    expect(check(inspection({ photo_keys: { remove: [tag] } }), { existing: holding(25) })).toEqual(
      [],
    );
    expect(
      check(inspection({ photo_keys: { add: [photoOf(30)] } }), { existing: holding(25) }),
    ).toHaveLength(1);
  });

  it("takes a removal of tags the set holds or has removed, and refuses a made-up tag", () => {
    const existing = holding(3);
    const removedBefore = hlcAt(now - 5000);
    expect(
      check(inspection({ photo_keys: { remove: [tagOf(1), removedBefore] } }), { existing }),
    ).toEqual([]);
    const madeUp = hlcAt(now - 4000, "dev-x");
    const r = oneRejection(
      inspection({ photo_keys: { remove: [tagOf(0), madeUp, hlcAt(now - 3000, "dev-x")] } }),
      { existing },
    );
    expect(r).toMatchObject({
      code: "invalid_argument",
      reason: `inspection.photo_keys remove[1] "${madeUp}" is not the tag of an add this set received (and 1 more): a removal names only adds it observed`,
    });
    // No stored row, or a row without photos: nothing can be removed.
    expect(oneRejection(inspection({ photo_keys: { remove: [tagOf(0)] } })).reason).toMatch(
      /remove\[0\] .* is not the tag of an add this set received: a removal/,
    );
    expect(
      check(inspection({ photo_keys: { remove: [tagOf(0)] } }), { existing: stored({}) }),
    ).toHaveLength(1);
  });

  it("in a batch, a removal may name an add refused only for its clock: it comes back re-stamped", () => {
    // A device running 61 s ahead adds a photo and removes it before its first Push: the add
    // is refused for its stamp alone, and the removal for its stamp too, not for the tag it
    // names (re-stamping renames both, restamp.ts). A removal of another row's add, or of an
    // add refused for more than its clock, is still refused for the tag.
    const ahead = now + 61_000;
    const add = change({
      entity: "inspection",
      payload: { photo_keys: { add: [photoOf(0)] } },
      hlc: hlcAt(ahead),
    });
    const remove = (tag: Hlc, entityId = hive): Change =>
      change({
        entity: "inspection",
        entityId,
        payload: { photo_keys: { remove: [tag] } },
        hlc: hlcAt(ahead + 1),
      });
    const reasons = (changes: readonly Change[]) => {
      const next = batchChecker({ nowMs: now, caller: context().caller, exists: () => true });
      return changes.map((c, i) => next(c, i, undefined).map((r) => r.reason));
    };
    const [addReasons, removeReasons] = reasons([add, remove(add.hlc)]);
    expect(addReasons).toEqual([expect.stringMatching(/ahead of the server clock/)]);
    expect(removeReasons).toEqual([expect.stringMatching(/ahead of the server clock/)]);
    // Another row's add.
    expect(reasons([add, remove(add.hlc, otherHive)])[1]).toEqual([
      expect.stringMatching(/ahead of the server clock/),
      expect.stringMatching(/is not the tag of an add this set received/),
    ]);
    // An add refused for more than its clock (too many photos) does not come back as it is.
    const tooMany = change({
      ...add,
      payload: { photo_keys: { add: Array.from({ length: 21 }, (_, i) => photoOf(i)) } },
    });
    expect(reasons([tooMany, remove(add.hlc)])[1]).toHaveLength(2);
  });
});

describe("properties", () => {
  const idArb = fc.oneof(fc.uuid(), fc.stringMatching(/^[A-Za-z0-9_-]{1,100}$/));
  const textArb = fc.string({ unit: "binary", maxLength: 40 }).filter(isStorableText);
  const hlcArb = fc
    .record({
      ms: fc.integer({ min: 0, max: 999_999_999_999_999 }),
      counter: fc.integer({ min: 0, max: 99_999 }),
      node: fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
    })
    .map(formatHlc);
  // An instant and how a device might write it (any zone); parsing yields the instant.
  const timestampArb = fc
    .tuple(
      fc.integer({ min: Date.UTC(1, 0, 2), max: Date.UTC(9999, 11, 30) }),
      fc.integer({ min: -23 * 60, max: 23 * 60 }),
    )
    .map(([ms, offset]) => {
      const local = new Date(ms + offset * 60_000).toISOString().slice(0, -1);
      const sign = offset < 0 ? "-" : "+";
      const abs = Math.abs(offset);
      const zone = `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
      return { wire: `${local}${zone}` as unknown, value: new Date(ms).toISOString() as unknown };
    });

  type Pair = { wire: unknown; value: unknown };
  const same = (a: fc.Arbitrary<unknown>): fc.Arbitrary<Pair> =>
    a.map((v) => ({ wire: v, value: v }));

  function valueArb(spec: ColumnSpec, required: boolean): fc.Arbitrary<Pair> {
    switch (spec.type) {
      case "text":
        if (spec.elementPrefix !== undefined) {
          // A data-URL column (hive.photo): "" for none, else prefixed.
          const url = textArb.map((s) => `${spec.elementPrefix}${s}`);
          return same(required ? url : fc.oneof(fc.constant(""), url));
        }
        return same(spec.nonEmpty || required ? textArb.filter((s) => s.trim() !== "") : textArb);
      case "float":
        // Within the column's range (its min … max; above 0 when positive).
        return fc
          .double({
            noNaN: true,
            noDefaultInfinity: true,
            ...(spec.min !== undefined ? { min: spec.min } : {}),
            ...(spec.max !== undefined ? { max: spec.max } : {}),
            ...(spec.positive ? { min: Number.MIN_VALUE } : {}),
          })
          .map((v) => ({ wire: v, value: v + 0 }));
      case "int":
        return same(
          fc.integer({
            min: spec.positive ? 1 : (spec.min ?? minInt32),
            max: spec.max ?? maxInt32,
          }),
        );
      case "bool":
        return same(fc.boolean());
      case "enum":
        return same(fc.constantFrom(0, ...(spec.enumValues ?? [])));
      case "timestamp":
        return required ? timestampArb : fc.oneof(same(fc.constant(null)), timestampArb);
      case "id":
        return same(required ? idArb : fc.oneof(fc.constant(""), idArb));
      case "orset":
        return same(
          fc.record(
            {
              add: fc.array(
                textArb.map((s) => `${spec.elementPrefix ?? ""}${s}`),
                { maxLength: 3 },
              ),
              remove: fc.array(hlcArb, { maxLength: 3 }),
            },
            { requiredKeys: [] },
          ),
        );
    }
  }

  const changeArb = fc.constantFrom(...entityNames).chain((entity) => {
    const spec = entities[entity];
    const columns = Object.fromEntries(
      Object.entries(spec.columns).map(([c, s]) => [c, valueArb(s, spec.required.includes(c))]),
    );
    return fc.record({
      entity: fc.constant(entity),
      entityId: idArb,
      scopeId: fc.oneof(idArb, idArb.map(userScope)),
      op: fc.constantFrom(1, 2),
      hlc: hlcArb,
      payload: fc.record(columns, { requiredKeys: [] }),
    });
  });

  it("any valid change parses to the same change, timestamps normalised to UTC", () => {
    fc.assert(
      fc.property(changeArb, (c) => {
        const pairs = Object.entries(c.payload).filter(
          (e): e is [string, Pair] => c.op === 1 && e[1] !== undefined,
        );
        const w: WireChange = {
          entity: c.entity,
          entityId: c.entityId,
          scopeId: c.scopeId,
          op: c.op,
          hlc: c.hlc,
          payloadJson: JSON.stringify(Object.fromEntries(pairs.map(([k, p]) => [k, p.wire]))),
        };
        expect(parseWireChange(w, user, 3)).toEqual({
          value: {
            entity: c.entity,
            entityId: c.entityId,
            scopeId: c.scopeId,
            op: c.op === 1 ? "upsert" : "delete",
            hlc: c.hlc,
            authorId: user,
            payload: Object.fromEntries(pairs.map(([k, p]) => [k, p.value])),
          },
        });
      }),
    );
  });

  const wrongValues: Record<ColumnSpec["type"], unknown[]> = {
    text: [1, true, null, [], {}],
    float: ["1", true, null, [], {}],
    int: [1.5, "1", 2 ** 31, true, null],
    bool: [0, "true", null, []],
    enum: [-1, 1.5, "1", null, 1000],
    timestamp: ["2026-01-01T00:00:00", "", 0, true, "2026-13-01T00:00:00Z"],
    id: [1, null, "a b", "x".repeat(101)],
    orset: [[], "x", { add: "x" }, { remove: ["x"] }, { add: [1] }, { add: ["nope"] }],
  };

  it("a column holding a value of the wrong shape is rejected, naming the column", () => {
    const arb = fc
      .constantFrom(...entityNames)
      .chain((entity) =>
        fc
          .constantFrom(...Object.entries(entities[entity].columns))
          .chain(([column, spec]) =>
            fc.constantFrom(...wrongValues[spec.type]).map((bad) => ({ entity, column, bad })),
          ),
      );
    fc.assert(
      fc.property(arb, ({ entity, column, bad }) => {
        const result = parseWireChange(wire({ [column]: bad }, { entity }), user, 0);
        expect(result).toHaveProperty("error.code", "invalid_argument");
        expect(result).toHaveProperty(
          "error.reason",
          expect.stringContaining(`${entity}.${column} `),
        );
      }),
    );
  });
});
