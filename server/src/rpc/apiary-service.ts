import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import { createApiary, deleteApiary, notFound, updateApiary } from "@hivekeep/client-core/core";
import {
  type ApiaryService,
  CreateApiaryResponseSchema,
  DeleteApiaryResponseSchema,
  GetApiaryResponseSchema,
  ListApiariesResponseSchema,
  UpdateApiaryResponseSchema,
} from "@hivekeep/proto";
import type { Queryable } from "../db/db.ts";
import { getApiary, listApiaries } from "../store/apiaries.ts";
import { unpackClock } from "../store/stored-clock.ts";
import { writeTenant } from "../store/tenant-write.ts";
import { callerOf } from "./context.ts";
import { commandContext, type Deps, observeClock } from "./deps.ts";
import { apiaryToProto } from "./mapping.ts";
import { pageResponse, pageWindow } from "@hivekeep/client-core/ops";

/** The state the apiary commands need, read inside the write transaction. */
async function apiaryState(tx: Queryable, deps: Deps, organizationId: string, id: string) {
  const [row] = await tx.query<{ clock: unknown; live_hives: number }>(
    `select a.clock, (select count(*) from hives h where h.organization_id = a.organization_id
        and h.apiary_id = a.id and h.complete and not h.deleted) as live_hives
     from apiaries a where a.organization_id = $1 and a.id = $2 and a.complete and not a.deleted`,
    [organizationId, id],
  );
  if (!row) return undefined;
  observeClock(deps, unpackClock(row.clock));
  return { id, liveHives: Number(row.live_hives) };
}

async function mustGet(q: Queryable, organizationId: string, id: string) {
  const row = await getApiary(q, organizationId, id);
  if (!row) throw notFound("apiary", id);
  return apiaryToProto(row);
}

export function apiaryService(deps: Deps): ServiceImpl<typeof ApiaryService> {
  const { db } = deps;
  return {
    async listApiaries(req, ctx) {
      const { organizationId } = callerOf(ctx);
      const window = pageWindow(req.page);
      const { rows, total } = await listApiaries(db, organizationId, window.offset, window.limit);
      return create(ListApiariesResponseSchema, {
        apiaries: rows.map(apiaryToProto),
        page: pageResponse(window, rows.length, total),
      });
    },

    async getApiary(req, ctx) {
      const { organizationId } = callerOf(ctx);
      return create(GetApiaryResponseSchema, {
        apiary: await mustGet(db, organizationId, req.id),
      });
    },

    async createApiary(req, ctx) {
      const caller = callerOf(ctx);
      const apiary = await writeTenant(db, caller.organizationId, async (w) => {
        const { id, changes } = createApiary(commandContext(deps, caller), req);
        await w.apply(changes);
        return mustGet(w.tx, caller.organizationId, id);
      });
      return create(CreateApiaryResponseSchema, { apiary });
    },

    async updateApiary(req, ctx) {
      const caller = callerOf(ctx);
      const apiary = await writeTenant(db, caller.organizationId, async (w) => {
        const state = await apiaryState(w.tx, deps, caller.organizationId, req.id);
        await w.apply(updateApiary(commandContext(deps, caller), state, req.id, req));
        return mustGet(w.tx, caller.organizationId, req.id);
      });
      return create(UpdateApiaryResponseSchema, { apiary });
    },

    async deleteApiary(req, ctx) {
      const caller = callerOf(ctx);
      await writeTenant(db, caller.organizationId, async (w) => {
        const state = await apiaryState(w.tx, deps, caller.organizationId, req.id);
        await w.apply(deleteApiary(commandContext(deps, caller), state, req.id));
      });
      return create(DeleteApiaryResponseSchema, {});
    },
  };
}
