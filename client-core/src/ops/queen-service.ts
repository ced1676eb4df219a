/**
 * QueenService (contract §4.5) over a replica: create (introducedAt default now; ends the reign
 * of the hive's active queens, QUEEN_REPLACED and QUEEN_INTRODUCED events), update (overwrites;
 * hive_id never changes; the scope follows the hive), get, and list newest introduction first.
 */
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import {
  CreateQueenResponseSchema,
  GetQueenResponseSchema,
  ListQueensResponseSchema,
  QueenSchema,
  type QueenService,
  UpdateQueenResponseSchema,
} from "@hivekeep/proto";
import { createQueen, type QueenHive, updateQueen } from "../core/commands/queen.ts";
import { requestedHiveAt } from "./hive-at.ts";
import type { Filter } from "./query.ts";
import { getRecord, listPage } from "./record-reads.ts";
import type { ReplicaReader } from "./replica-store.ts";
import { commandContext, type SessionOf } from "./session.ts";
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

    // Being built (issue 25): answers unimplemented until its command lands.
    deleteQueen() {
      throw new ConnectError("deleteQueen is not implemented yet", Code.Unimplemented);
    },
  };
}
