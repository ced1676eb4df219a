import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import { createHive, entities, notFound } from "@hivekeep/client-core/core";
import {
  CreateHiveResponseSchema,
  GetHiveResponseSchema,
  type Hive,
  HiveSchema,
  type HiveService,
  ListHivesResponseSchema,
} from "@hivekeep/proto";
import type { Queryable, Row } from "../db/db.ts";
import { getLive, listLive } from "../store/rows.ts";
import { writeTenant } from "../store/tenant-write.ts";
import { callerOf } from "./context.ts";
import { commandContext, type Deps } from "./deps.ts";
import { pageResponse, pageWindow } from "./paging.ts";
import { rowToProto } from "./row-to-proto.ts";

export const hiveToProto = (row: Row): Hive => rowToProto(HiveSchema, entities.hive, row);

async function mustGetHive(q: Queryable, organizationId: string, id: string): Promise<Hive> {
  const row = await getLive(q, entities.hive, organizationId, id);
  if (!row) throw notFound("hive", id);
  return hiveToProto(row);
}

export function hiveService(deps: Deps): Partial<ServiceImpl<typeof HiveService>> {
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
  };
}
