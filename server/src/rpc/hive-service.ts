import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  createHive,
  deleteHive,
  entities,
  type HiveState,
  notFound,
  relocateHive,
  updateHive,
} from "@hivekeep/client-core/core";
import {
  CreateHiveResponseSchema,
  DeleteHiveResponseSchema,
  GetHiveResponseSchema,
  type Hive,
  HiveSchema,
  type HiveService,
  ListHivesResponseSchema,
  RelocateHiveResponseSchema,
  UpdateHiveResponseSchema,
} from "@hivekeep/proto";
import type { Queryable, Row } from "../db/db.ts";
import { hiveAt } from "../store/hive-context.ts";
import { openPlacements } from "../store/placements.ts";
import { getLive, listLive } from "../store/rows.ts";
import { writeTenant } from "../store/tenant-write.ts";
import { callerOf } from "./context.ts";
import { commandContext, type Deps, observeClock, rowForEdit } from "./deps.ts";
import { isoOr } from "./mapping.ts";
import { pageResponse, pageWindow } from "./paging.ts";
import { rowToProto } from "./row-to-proto.ts";

export const hiveToProto = (row: Row): Hive => rowToProto(HiveSchema, entities.hive, row);

async function mustGetHive(q: Queryable, organizationId: string, id: string): Promise<Hive> {
  const row = await getLive(q, entities.hive, organizationId, id);
  if (!row) throw notFound("hive", id);
  return hiveToProto(row);
}

/**
 * The state the hive commands need, read inside the write transaction: the
 * hive, its open placements (both about to be edited, so the server clock
 * observes their stamps) and the queen reigning at `at` (for the events).
 */
async function hiveState(
  deps: Deps,
  tx: Queryable,
  organizationId: string,
  id: string,
  at: string,
): Promise<HiveState | undefined> {
  const row = await rowForEdit(deps, tx, entities.hive, organizationId, id);
  if (!row) return undefined;
  const placements = await openPlacements(tx, organizationId, id);
  for (const p of placements) observeClock(deps, p.clock);
  const context = await hiveAt(tx, organizationId, id, at);
  return {
    id,
    name: String(row.name),
    apiaryId: String(row.apiary_id),
    status: Number(row.status ?? 0),
    queenId: context?.queenId ?? "",
    openPlacements: placements.map(({ id, apiaryId, startedAt }) => ({ id, apiaryId, startedAt })),
  };
}

export function hiveService(deps: Deps): ServiceImpl<typeof HiveService> {
  const { db } = deps;
  return {
    async listHives(req, ctx) {
      const { organizationId } = callerOf(ctx);
      const window = pageWindow(req.page);
      const { rows, total } = await listLive(db, entities.hive, organizationId, {
        equals: { apiary_id: req.apiaryId },
        orderBy: "lower(name), id",
        ...window,
      });
      return create(ListHivesResponseSchema, {
        hives: rows.map(hiveToProto),
        page: pageResponse(window, rows.length, total),
      });
    },

    async getHive(req, ctx) {
      const { organizationId } = callerOf(ctx);
      return create(GetHiveResponseSchema, { hive: await mustGetHive(db, organizationId, req.id) });
    },

    async createHive(req, ctx) {
      const caller = callerOf(ctx);
      const hive = await writeTenant(db, caller.organizationId, async (w) => {
        const apiary =
          req.apiaryId === ""
            ? undefined
            : await getLive(w.tx, entities.apiary, caller.organizationId, req.apiaryId);
        const { id, changes } = createHive(
          commandContext(deps, caller),
          apiary ? { id: String(apiary.id) } : undefined,
          req,
        );
        await w.apply(changes);
        return mustGetHive(w.tx, caller.organizationId, id);
      });
      return create(CreateHiveResponseSchema, { hive });
    },

    async updateHive(req, ctx) {
      const caller = callerOf(ctx);
      const hive = await writeTenant(db, caller.organizationId, async (w) => {
        const cc = commandContext(deps, caller);
        const id = req.hive?.id ?? "";
        const state = req.hive
          ? await hiveState(deps, w.tx, caller.organizationId, id, cc.now.toISOString())
          : undefined;
        await w.apply(updateHive(cc, state, req.hive));
        return mustGetHive(w.tx, caller.organizationId, id);
      });
      return create(UpdateHiveResponseSchema, { hive });
    },

    async relocateHive(req, ctx) {
      const caller = callerOf(ctx);
      const hive = await writeTenant(db, caller.organizationId, async (w) => {
        const cc = commandContext(deps, caller);
        const date = isoOr(req.date, cc.now, "date");
        const state = await hiveState(deps, w.tx, caller.organizationId, req.id, date);
        const target =
          req.targetApiaryId === ""
            ? undefined
            : await getLive(w.tx, entities.apiary, caller.organizationId, req.targetApiaryId);
        const changes = relocateHive(
          cc,
          state,
          target ? { id: String(target.id), name: String(target.name) } : undefined,
          { id: req.id, targetApiaryId: req.targetApiaryId, date },
        );
        await w.apply(changes);
        return mustGetHive(w.tx, caller.organizationId, req.id);
      });
      return create(RelocateHiveResponseSchema, { hive });
    },

    async deleteHive(req, ctx) {
      const caller = callerOf(ctx);
      await writeTenant(db, caller.organizationId, async (w) => {
        const cc = commandContext(deps, caller);
        const state = await hiveState(
          deps,
          w.tx,
          caller.organizationId,
          req.id,
          cc.now.toISOString(),
        );
        await w.apply(deleteHive(cc, state, req.id));
      });
      return create(DeleteHiveResponseSchema, {});
    },
  };
}
