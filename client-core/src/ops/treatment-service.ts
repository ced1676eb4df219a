/**
 * TreatmentService (contract §4.7) over a replica: create (freezing the hive's apiary and queen
 * as of the treatment's date, which defaults to now; a TREATMENT event), get, and list newest
 * first. Treatments are legal records: no update, no delete.
 */
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import {
  CreateTreatmentResponseSchema,
  GetTreatmentResponseSchema,
  ListTreatmentsResponseSchema,
  TreatmentSchema,
  type TreatmentService,
} from "@hivekeep/proto";
import { createTreatment } from "../core/commands/treatment.ts";
import { hiveAsOf } from "./hive-at.ts";
import { getRecord, listPage } from "./record-reads.ts";
import type { ReplicaReader } from "./replica-store.ts";
import { commandContext, type SessionOf } from "./session.ts";
import { isoOr, isoOrNull } from "./timestamps.ts";

const mustGetTreatment = (r: ReplicaReader, organizationId: string, id: string) =>
  getRecord(r, "treatment", TreatmentSchema, organizationId, id);

export function treatmentService(sessionOf: SessionOf): ServiceImpl<typeof TreatmentService> {
  return {
    async listTreatments(req, ctx) {
      const s = sessionOf(ctx);
      const { items, page } = await listPage(s, "treatment", TreatmentSchema, req.page, {
        where: req.hiveId === "" ? [] : [{ column: "hive_id", eq: req.hiveId }],
        orderBy: [
          { column: "date", desc: true },
          { column: "id", desc: true },
        ],
      });
      return create(ListTreatmentsResponseSchema, { treatments: items, page });
    },

    async getTreatment(req, ctx) {
      const s = sessionOf(ctx);
      const treatment = await s.store.read((r) => mustGetTreatment(r, s.organizationId, req.id));
      return create(GetTreatmentResponseSchema, { treatment });
    },

    async createTreatment(req, ctx) {
      const s = sessionOf(ctx);
      const cc = commandContext(s);
      const date = isoOr(req.date, cc.now, "date");
      const withdrawalUntil = isoOrNull(req.withdrawalUntil, "withdrawalUntil");
      const treatment = await s.store.write(async (w) => {
        const hive = await hiveAsOf(w, req.hiveId, date);
        const { id, changes } = createTreatment(cc, hive, { ...req, date, withdrawalUntil });
        await w.apply(changes);
        return mustGetTreatment(w, s.organizationId, id);
      });
      return create(CreateTreatmentResponseSchema, { treatment });
    },

    // Being built (issue 25): answers unimplemented until its command lands.
    updateTreatment() {
      throw new ConnectError("updateTreatment is not implemented yet", Code.Unimplemented);
    },

    // Being built (issue 25): answers unimplemented until its command lands.
    deleteTreatment() {
      throw new ConnectError("deleteTreatment is not implemented yet", Code.Unimplemented);
    },
  };
}
