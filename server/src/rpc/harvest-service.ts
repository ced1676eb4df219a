/**
 * HarvestService (contract §4.8): harvests freeze the hive's apiary and queen
 * as of their date and record a HARVEST event; DeleteHarvest tombstones both
 * (DESIGN.md §3), so every honey figure drops. There is no update.
 */
import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  createHarvest,
  deleteHarvest,
  entities,
  type HarvestState,
  notFound,
} from "@hivekeep/client-core/core";
import {
  CreateHarvestResponseSchema,
  DeleteHarvestResponseSchema,
  GetHarvestResponseSchema,
  type Harvest,
  HarvestSchema,
  type HarvestService,
  ListHarvestsResponseSchema,
} from "@hivekeep/proto";
import type { Queryable, Row } from "../db/db.ts";
import { harvestEvents } from "../store/events.ts";
import { hiveAt } from "../store/hive-context.ts";
import { getLive, listLive } from "../store/rows.ts";
import { writeTenant } from "../store/tenant-write.ts";
import { callerOf } from "./context.ts";
import { commandContext, type Deps, observeClock, rowForEdit } from "./deps.ts";
import { isoOr, isoOrNull } from "./mapping.ts";
import { pageResponse, pageWindow } from "@hivekeep/client-core/ops";
import { rowToProto } from "./row-to-proto.ts";

export const harvestToProto = (row: Row): Harvest =>
  rowToProto(HarvestSchema, entities.harvest, row);

async function mustGetHarvest(q: Queryable, organizationId: string, id: string): Promise<Harvest> {
  const row = await getLive(q, entities.harvest, organizationId, id);
  if (!row) throw notFound("harvest", id);
  return harvestToProto(row);
}

/** The harvest and its events as DeleteHarvest needs them; the clock sees their stamps. */
async function harvestState(
  deps: Deps,
  tx: Queryable,
  organizationId: string,
  id: string,
): Promise<HarvestState | undefined> {
  const row = await rowForEdit(deps, tx, entities.harvest, organizationId, id);
  if (!row) return undefined;
  const events = await harvestEvents(tx, organizationId, id);
  for (const e of events) observeClock(deps, e.clock);
  return {
    id,
    scopeId: String(row.scope_id),
    events: events.map((e) => ({ id: e.id, scopeId: e.scope_id })),
  };
}

export function harvestService(deps: Deps): ServiceImpl<typeof HarvestService> {
  const { db } = deps;
  return {
    async listHarvests(req, ctx) {
      const { organizationId } = callerOf(ctx);
      const window = pageWindow(req.page);
      const { rows, total } = await listLive(db, entities.harvest, organizationId, {
        equals: { hive_id: req.hiveId, apiary_id: req.apiaryId },
        orderBy: "date desc, created_at desc, id desc",
        ...window,
      });
      return create(ListHarvestsResponseSchema, {
        harvests: rows.map(harvestToProto),
        page: pageResponse(window, rows.length, total),
      });
    },

    async getHarvest(req, ctx) {
      const { organizationId } = callerOf(ctx);
      return create(GetHarvestResponseSchema, {
        harvest: await mustGetHarvest(db, organizationId, req.id),
      });
    },

    async createHarvest(req, ctx) {
      const caller = callerOf(ctx);
      const harvest = await writeTenant(db, caller.organizationId, async (w) => {
        const cctx = commandContext(deps, caller);
        const date = isoOr(req.date, cctx.now, "date");
        const at =
          req.hiveId === ""
            ? undefined
            : await hiveAt(w.tx, caller.organizationId, req.hiveId, date);
        const { id, changes } = createHarvest(
          cctx,
          at ? { id: req.hiveId, apiaryId: at.apiaryId, queenId: at.queenId } : undefined,
          {
            ...req,
            date,
            bestBefore: isoOrNull(req.bestBefore, "bestBefore"),
          },
        );
        await w.apply(changes);
        return mustGetHarvest(w.tx, caller.organizationId, id);
      });
      return create(CreateHarvestResponseSchema, { harvest });
    },

    async deleteHarvest(req, ctx) {
      const caller = callerOf(ctx);
      await writeTenant(db, caller.organizationId, async (w) => {
        const state = await harvestState(deps, w.tx, caller.organizationId, req.id);
        await w.apply(deleteHarvest(commandContext(deps, caller), state, req.id));
      });
      return create(DeleteHarvestResponseSchema, {});
    },
  };
}
