/**
 * QueenService (contract §4.5) over a replica: create (introducedAt default now; ends the reign
 * of the hive's active queens, QUEEN_REPLACED and QUEEN_INTRODUCED events), update (overwrites;
 * hive_id never changes; the scope follows the hive), delete (the queen she replaced reigns again;
 * the records that froze her are re-frozen), get, and list newest introduction first.
 */
import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  CreateQueenResponseSchema,
  DeleteQueenResponseSchema,
  GetQueenResponseSchema,
  ListQueensResponseSchema,
  QueenSchema,
  type QueenService,
  UpdateQueenResponseSchema,
} from "@hivekeep/proto";
import { EventType } from "../core/commands/event.ts";
import { harvestTitle } from "../core/commands/harvest.ts";
import {
  createQueen,
  type DeleteQueenState,
  deleteQueen,
  type FrozenRecord,
  type QueenHive,
  type QueenReign,
  updateQueen,
} from "../core/commands/queen.ts";
import type { Values } from "../core/merge.ts";
import { requestedHiveAt } from "./hive-at.ts";
import type { Filter } from "./query.ts";
import { getRecord, listPage } from "./record-reads.ts";
import { hiveRecordState } from "./record-state.ts";
import type { ReplicaReader, StoredRow } from "./replica-store.ts";
import { commandContext, type SessionOf } from "./session.ts";
import { settled } from "./settled.ts";
import { isoOf, isoOr } from "./timestamps.ts";
import { withoutUnchanged } from "./unchanged.ts";

const mustGetQueen = (r: ReplicaReader, organizationId: string, id: string) =>
  getRecord(r, "queen", QueenSchema, organizationId, id);

/** The hive as CreateQueen needs it, read inside the write. */
async function queenHive(
  r: ReplicaReader,
  hiveId: string,
  introducedAt: string,
): Promise<QueenHive | undefined> {
  const at = await requestedHiveAt(r, hiveId, introducedAt);
  if (!at) return undefined;
  // The hive's active queens (normally at most one), oldest introduction first.
  const { rows: reigning } = await r.list("queen", {
    where: [
      { column: "hive_id", eq: hiveId },
      { column: "active", eq: true },
    ],
    orderBy: [{ column: "introduced_at", orElse: "created_at" }, { column: "id" }],
  });
  return {
    id: hiveId,
    apiaryId: String(at.hive.values.apiary_id ?? at.apiaryId),
    apiaryAtIntroduction: at.apiaryId,
    activeQueens: reigning.map((q) => ({ id: q.id, year: Number(q.values.year ?? 0) })),
  };
}

const text = (v: unknown): string => (typeof v === "string" ? v : "");

function reignOf(row: StoredRow): QueenReign {
  const replacedAt = row.values.replaced_at;
  return {
    id: row.id,
    scopeId: row.scopeId,
    year: Number(row.values.year ?? 0),
    start: text(row.values.introduced_at) || text(row.values.created_at),
    replacedAt: typeof replacedAt === "string" ? replacedAt : null,
    active: row.values.active === true,
  };
}

function detailOf(json: unknown): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text(json) || "{}");
    return parsed !== null && typeof parsed === "object" ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The records of a hive's life and how their event is titled. */
const frozenKinds = [
  { entity: "inspection", type: EventType.INSPECTION, title: () => "Inspection" },
  { entity: "treatment", type: EventType.TREATMENT, title: (v: Values) => text(v.product) },
  {
    entity: "harvest",
    type: EventType.HARVEST,
    title: (v: Values) => harvestTitle(Number(v.amount_kg ?? 0), text(v.variety)),
  },
] as const;

/** What DeleteQueen needs, read inside the write; undefined when the queen does not exist. */
async function deleteQueenState(
  r: ReplicaReader,
  id: string,
): Promise<DeleteQueenState | undefined> {
  const row = id === "" ? undefined : await r.get("queen", id);
  if (!row) return undefined;
  const hiveId = text(row.values.hive_id);
  const byHive = { column: "hive_id", eq: hiveId } as const;
  const [hive, { rows: queens }, { rows: events }] = await settled([
    r.get("hive", hiveId),
    r.list("queen", { where: [byHive], orderBy: [{ column: "id" }] }),
    r.list("event", {
      where: [byHive, { column: "ref_entity", eq: "queen" }],
      orderBy: [{ column: "id" }],
    }),
  ]);
  const records: FrozenRecord[] = [];
  for (const kind of frozenKinds) {
    const { rows } = await r.list(kind.entity, {
      where: [{ column: "queen_id", eq: id }],
      orderBy: [{ column: "id" }],
    });
    for (const record of rows) {
      const state = await hiveRecordState(r, kind.entity, record.id, kind.type);
      if (!state) continue;
      const amountKg = kind.entity === "harvest" ? Number(record.values.amount_kg ?? 0) : 0;
      records.push({
        entity: kind.entity,
        state,
        event: { type: kind.type, title: kind.title(record.values), amountKg },
      });
    }
  }
  return {
    hiveId,
    queen: reignOf(row),
    others: queens.filter((q) => q.id !== id).map(reignOf),
    events: events.map((e) => ({
      id: e.id,
      scopeId: e.scopeId,
      type: Number(e.values.type ?? 0) as EventType,
      apiaryId: text(e.values.apiary_id),
      refId: text(e.values.ref_id),
      detail: detailOf(e.values.detail_json),
    })),
    // The scope follows the hive (it may have moved); the stored one once the hive is gone.
    scopeId: text(hive?.values.apiary_id) || row.scopeId,
    records,
  };
}

export function queenService(sessionOf: SessionOf): ServiceImpl<typeof QueenService> {
  return {
    // Newest introduction first; a hive's history reads top down.
    async listQueens(req, ctx) {
      const s = sessionOf(ctx);
      const where: Filter[] = [];
      if (req.hiveId !== "") where.push({ column: "hive_id", eq: req.hiveId });
      if (req.onlyActive) where.push({ column: "active", eq: true });
      const { items, page } = await listPage(s, "queen", QueenSchema, req.page, {
        where,
        orderBy: [
          { column: "introduced_at", orElse: "created_at", desc: true },
          { column: "id", desc: true },
        ],
      });
      return create(ListQueensResponseSchema, { queens: items, page });
    },

    async getQueen(req, ctx) {
      const s = sessionOf(ctx);
      const queen = await s.store.read((r) => mustGetQueen(r, s.organizationId, req.id));
      return create(GetQueenResponseSchema, { queen });
    },

    async createQueen(req, ctx) {
      const s = sessionOf(ctx);
      const cc = commandContext(s);
      const introducedAt = isoOr(req.introducedAt, cc.now, "introducedAt");
      const queen = await s.store.write(async (w) => {
        const hive = await queenHive(w, req.hiveId, introducedAt);
        const { id, changes } = createQueen(cc, hive, { ...req, introducedAt });
        await w.apply(changes);
        return mustGetQueen(w, s.organizationId, id);
      });
      return create(CreateQueenResponseSchema, { queen });
    },

    // A hiveId in the message is ignored: hive_id never changes (contract §4.5 rule 3).
    async updateQueen(req, ctx) {
      const s = sessionOf(ctx);
      const cc = commandContext(s);
      const sent = req.queen;
      const queen = await s.store.write(async (w) => {
        const row = sent && (await w.get("queen", sent.id));
        // The scope follows the hive (it may have moved); the stored one once the hive is gone.
        const hive = row && (await w.get("hive", String(row.values.hive_id)));
        const state = row && {
          id: sent?.id ?? "",
          scopeId: String(hive?.values.apiary_id ?? row.scopeId),
        };
        const input = sent && {
          ...sent,
          introducedAt: sent.introducedAt && isoOf(sent.introducedAt, "queen.introducedAt"),
          replacedAt: sent.replacedAt && isoOf(sent.replacedAt, "queen.replacedAt"),
        };
        await w.apply(await withoutUnchanged(w, updateQueen(cc, state, input)));
        return mustGetQueen(w, s.organizationId, sent?.id ?? "");
      });
      return create(UpdateQueenResponseSchema, { queen });
    },

    async deleteQueen(req, ctx) {
      const s = sessionOf(ctx);
      await s.store.write(async (w) => {
        const state = await deleteQueenState(w, req.id);
        await w.apply(deleteQueen(commandContext(s), state, req.id));
      });
      return create(DeleteQueenResponseSchema, {});
    },
  };
}
