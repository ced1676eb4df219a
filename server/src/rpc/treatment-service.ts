/**
 * TreatmentService (contract §4.7): create (freezing apiary and queen as of
 * the date, TREATMENT event), get, and list newest first.
 */
import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import { createTreatment, entities, notFound, parseRfc3339 } from "@hivekeep/client-core/core";
import {
  CreateTreatmentResponseSchema,
  GetTreatmentResponseSchema,
  ListTreatmentsResponseSchema,
  type Treatment,
  TreatmentSchema,
  type TreatmentService,
} from "@hivekeep/proto";
import type { Queryable, Row } from "../db/db.ts";
import { hiveAt } from "../store/hive-context.ts";
import { getLive, listLive } from "../store/rows.ts";
import { writeTenant } from "../store/tenant-write.ts";
import { callerOf } from "./context.ts";
import { commandContext, type Deps } from "./deps.ts";
import { isoOr, isoOrNull } from "./mapping.ts";
import { pageResponse, pageWindow } from "@hivekeep/client-core/ops";
import { rowToProto } from "./row-to-proto.ts";

export const treatmentToProto = (row: Row): Treatment =>
  rowToProto(TreatmentSchema, entities.treatment, row);

async function mustGetTreatment(q: Queryable, organizationId: string, id: string) {
  const row = await getLive(q, entities.treatment, organizationId, id);
  if (!row) throw notFound("treatment", id);
  return treatmentToProto(row);
}

export function treatmentService(deps: Deps): ServiceImpl<typeof TreatmentService> {
  const { db } = deps;
  return {
    async listTreatments(req, ctx) {
      const { organizationId } = callerOf(ctx);
      const window = pageWindow(req.page);
      const { rows, total } = await listLive(db, entities.treatment, organizationId, {
        equals: { hive_id: req.hiveId },
        orderBy: "date desc, id desc",
        ...window,
      });
      return create(ListTreatmentsResponseSchema, {
        treatments: rows.map(treatmentToProto),
        page: pageResponse(window, rows.length, total),
      });
    },

    async getTreatment(req, ctx) {
      const { organizationId } = callerOf(ctx);
      return create(GetTreatmentResponseSchema, {
        treatment: await mustGetTreatment(db, organizationId, req.id),
      });
    },

    async createTreatment(req, ctx) {
      const caller = callerOf(ctx);
      const cctx = commandContext(deps, caller);
      const date = isoOr(req.date, cctx.now, "date");
      const withdrawalUntil = isoOrNull(req.withdrawalUntil, "withdrawalUntil");
      const treatment = await writeTenant(db, caller.organizationId, async (w) => {
        // An unreadable date is left to the command, which rejects it as invalid_argument.
        const at =
          req.hiveId === "" || "error" in parseRfc3339(date)
            ? undefined
            : await hiveAt(w.tx, caller.organizationId, req.hiveId, date);
        const hive = at && { id: req.hiveId, apiaryId: at.apiaryId, queenId: at.queenId };
        const { id, changes } = createTreatment(cctx, hive, { ...req, date, withdrawalUntil });
        await w.apply(changes);
        return mustGetTreatment(w.tx, caller.organizationId, id);
      });
      return create(CreateTreatmentResponseSchema, { treatment });
    },
  };
}
