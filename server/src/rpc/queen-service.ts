/**
 * QueenService (contract §4.5): create (replacing the hive's reigning queen,
 * QUEEN_REPLACED and QUEEN_INTRODUCED events), update (overwrite; hive_id
 * never changes), get, and list newest introduction first.
 */
import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  createQueen,
  entities,
  notFound,
  parseRfc3339,
  type QueenHive,
  updateQueen,
} from "@hivekeep/client-core/core";
import {
  CreateQueenResponseSchema,
  GetQueenResponseSchema,
  ListQueensResponseSchema,
  type Queen,
  QueenSchema,
  type QueenService,
  UpdateQueenResponseSchema,
} from "@hivekeep/proto";
import type { Queryable, Row } from "../db/db.ts";
import { hiveAt } from "../store/hive-context.ts";
import { activeQueens } from "../store/queens.ts";
import { getLive, listLive } from "../store/rows.ts";
import { writeTenant } from "../store/tenant-write.ts";
import { callerOf } from "./context.ts";
import { commandContext, type Deps, observeClock, rowForEdit } from "./deps.ts";
import { isoOf, isoOr } from "./mapping.ts";
import { pageResponse, pageWindow } from "@hivekeep/client-core/ops";
import { rowToProto } from "./row-to-proto.ts";

export const queenToProto = (row: Row): Queen => rowToProto(QueenSchema, entities.queen, row);

async function mustGetQueen(q: Queryable, organizationId: string, id: string): Promise<Queen> {
  const row = await getLive(q, entities.queen, organizationId, id);
  if (!row) throw notFound("queen", id);
  return queenToProto(row);
}

/** The hive as CreateQueen needs it, read inside the write transaction. */
async function queenHive(
  deps: Deps,
  tx: Queryable,
  organizationId: string,
  hiveId: string,
  introducedAt: string,
): Promise<QueenHive | undefined> {
  // An unreadable date is left to the command, which rejects it as invalid_argument.
  if (hiveId === "" || "error" in parseRfc3339(introducedAt)) return undefined;
  const at = await hiveAt(tx, organizationId, hiveId, introducedAt);
  if (!at) return undefined;
  const reigning = await activeQueens(tx, organizationId, hiveId);
  // The replaced queens are edited: their stamps must lose to ours.
  for (const q of reigning) observeClock(deps, q.clock);
  return {
    id: hiveId,
    apiaryId: String(at.hive.apiary_id ?? at.apiaryId),
    apiaryAtIntroduction: at.apiaryId,
    activeQueens: reigning,
  };
}

export function queenService(deps: Deps): ServiceImpl<typeof QueenService> {
  const { db } = deps;
  return {
    // Newest introduction first; a hive's history reads top down.
    async listQueens(req, ctx) {
      const { organizationId } = callerOf(ctx);
      const window = pageWindow(req.page);
      const { rows, total } = await listLive(db, entities.queen, organizationId, {
        equals: { hive_id: req.hiveId },
        extra: req.onlyActive ? [{ sql: "active", params: [] }] : [],
        orderBy: "coalesce(introduced_at, created_at) desc, id desc",
        ...window,
      });
      return create(ListQueensResponseSchema, {
        queens: rows.map(queenToProto),
        page: pageResponse(window, rows.length, total),
      });
    },

    async getQueen(req, ctx) {
      const { organizationId } = callerOf(ctx);
      return create(GetQueenResponseSchema, {
        queen: await mustGetQueen(db, organizationId, req.id),
      });
    },

    async createQueen(req, ctx) {
      const caller = callerOf(ctx);
      const cctx = commandContext(deps, caller);
      const introducedAt = isoOr(req.introducedAt, cctx.now, "introducedAt");
      const queen = await writeTenant(db, caller.organizationId, async (w) => {
        const hive = await queenHive(deps, w.tx, caller.organizationId, req.hiveId, introducedAt);
        const { id, changes } = createQueen(cctx, hive, { ...req, introducedAt });
        await w.apply(changes);
        return mustGetQueen(w.tx, caller.organizationId, id);
      });
      return create(CreateQueenResponseSchema, { queen });
    },

    // A hiveId in the message is ignored: hive_id never changes (contract §4.5 rule 3).
    async updateQueen(req, ctx) {
      const caller = callerOf(ctx);
      const cctx = commandContext(deps, caller);
      const sent = req.queen;
      const queen = await writeTenant(db, caller.organizationId, async (w) => {
        const org = caller.organizationId;
        const row = sent && (await rowForEdit(deps, w.tx, entities.queen, org, sent.id));
        // The scope follows the hive (it may have moved); the stored one once the hive is gone.
        const hive = row && (await getLive(w.tx, entities.hive, org, String(row.hive_id)));
        const state = row && {
          id: sent?.id ?? "",
          scopeId: String(hive?.apiary_id ?? row.scope_id),
        };
        const input = sent && {
          ...sent,
          introducedAt: sent.introducedAt && isoOf(sent.introducedAt, "queen.introducedAt"),
          replacedAt: sent.replacedAt && isoOf(sent.replacedAt, "queen.replacedAt"),
        };
        await w.apply(updateQueen(cctx, state, input));
        return mustGetQueen(w.tx, org, sent?.id ?? "");
      });
      return create(UpdateQueenResponseSchema, { queen });
    },
  };
}
