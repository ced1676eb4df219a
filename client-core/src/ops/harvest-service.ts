/**
 * HarvestService (contract §4.8, §6) over a replica: create (date default now; freezes the
 * hive's apiary and queen as of the date and records a HARVEST event), get, list newest first
 * (by hive and/or apiary), and delete, which tombstones the harvest and its HARVEST events so
 * every honey figure drops. There is no update.
 */
import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  CreateHarvestResponseSchema,
  DeleteHarvestResponseSchema,
  GetHarvestResponseSchema,
  HarvestSchema,
  type HarvestService,
  ListHarvestsResponseSchema,
} from "@hivekeep/proto";
import { EventType } from "../core/commands/event.ts";
import { createHarvest, deleteHarvest } from "../core/commands/harvest.ts";
import { hiveAsOf } from "./hive-at.ts";
import type { Filter } from "./query.ts";
import { getRecord, listPage } from "./record-reads.ts";
import { hiveRecordState } from "./record-state.ts";
import type { ReplicaReader } from "./replica-store.ts";
import { commandContext, type SessionOf } from "./session.ts";
import { isoOr, isoOrNull } from "./timestamps.ts";

const mustGetHarvest = (r: ReplicaReader, organizationId: string, id: string) =>
  getRecord(r, "harvest", HarvestSchema, organizationId, id);

export function harvestService(sessionOf: SessionOf): ServiceImpl<typeof HarvestService> {
  return {
    async listHarvests(req, ctx) {
      const s = sessionOf(ctx);
      const where: Filter[] = [];
      if (req.hiveId !== "") where.push({ column: "hive_id", eq: req.hiveId });
      if (req.apiaryId !== "") where.push({ column: "apiary_id", eq: req.apiaryId });
      const { items, page } = await listPage(s, "harvest", HarvestSchema, req.page, {
        where,
        orderBy: [
          { column: "date", desc: true },
          { column: "created_at", desc: true },
          { column: "id", desc: true },
        ],
      });
      return create(ListHarvestsResponseSchema, { harvests: items, page });
    },

    async getHarvest(req, ctx) {
      const s = sessionOf(ctx);
      const harvest = await s.store.read((r) => mustGetHarvest(r, s.organizationId, req.id));
      return create(GetHarvestResponseSchema, { harvest });
    },

    async createHarvest(req, ctx) {
      const s = sessionOf(ctx);
      const harvest = await s.store.write(async (w) => {
        const cc = commandContext(s);
        const date = isoOr(req.date, cc.now, "date");
        const { id, changes } = createHarvest(cc, await hiveAsOf(w, req.hiveId, date), {
          ...req,
          date,
          bestBefore: isoOrNull(req.bestBefore, "bestBefore"),
        });
        await w.apply(changes);
        return mustGetHarvest(w, s.organizationId, id);
      });
      return create(CreateHarvestResponseSchema, { harvest });
    },

    async deleteHarvest(req, ctx) {
      const s = sessionOf(ctx);
      await s.store.write(async (w) => {
        const state = await hiveRecordState(w, "harvest", req.id, EventType.HARVEST);
        await w.apply(deleteHarvest(commandContext(s), state, req.id));
      });
      return create(DeleteHarvestResponseSchema, {});
    },
  };
}
