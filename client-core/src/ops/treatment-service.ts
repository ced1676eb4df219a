/**
 * TreatmentService (contract §4.7) over a replica: create (freezing the hive's apiary and queen
 * as of the treatment's date, which defaults to now; a TREATMENT event), get, and list newest
 * first; update (overwrites; a changed date re-freezes; the event follows) and delete (with its
 * event) correct a wrong entry (issue 25).
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  CreateTreatmentResponseSchema,
  DeleteTreatmentResponseSchema,
  GetTreatmentRegisterResponseSchema,
  GetTreatmentResponseSchema,
  ListTreatmentsResponseSchema,
  TreatmentRegisterEntrySchema,
  TreatmentSchema,
  type TreatmentService,
  TreatmentVersionSchema,
  UpdateTreatmentResponseSchema,
} from "@hivekeep/proto";
import { EventType } from "../core/commands/event.ts";
import { createTreatment, deleteTreatment, updateTreatment } from "../core/commands/treatment.ts";
import { invalid } from "../core/domain-error.ts";
import { registerEntries } from "../core/register.ts";
import { isTimeZone } from "../core/transfer/csv.ts";
import { hiveAsOf } from "./hive-at.ts";
import { getRecord, listPage } from "./record-reads.ts";
import { hiveRecordState } from "./record-state.ts";
import type { ReplicaReader } from "./replica-store.ts";
import { commandContext, type SessionOf } from "./session.ts";
import { isoOr, isoOrNull } from "./timestamps.ts";
import { toProto } from "./to-proto.ts";
import { withoutUnchanged } from "./unchanged.ts";

/** A stored RFC 3339 string as a Timestamp; "" = unset. */
const timestampOrUndefined = (iso: string) =>
  iso === "" ? undefined : timestampFromDate(new Date(iso));

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

    // hive_id never changes (a different one is ignored); a changed date re-freezes the context.
    async updateTreatment(req, ctx) {
      const s = sessionOf(ctx);
      const cc = commandContext(s);
      const sent = req.treatment;
      const id = sent?.id ?? "";
      const treatment = await s.store.write(async (w) => {
        const input = sent && {
          ...sent,
          date: isoOr(sent.date, cc.now, "treatment.date"),
          withdrawalUntil: isoOrNull(sent.withdrawalUntil, "treatment.withdrawalUntil"),
        };
        const current = await hiveRecordState(w, "treatment", id, EventType.TREATMENT);
        const asOf = current && input && (await hiveAsOf(w, current.hiveId, input.date));
        // The stored register fields: a correction of one adds its version to the trail.
        const stored = current && (await w.get("treatment", id))?.values;
        const changes = updateTreatment(cc, current, asOf, input, stored);
        await w.apply(await withoutUnchanged(w, changes));
        return mustGetTreatment(w, s.organizationId, id);
      });
      return create(UpdateTreatmentResponseSchema, { treatment });
    },

    async deleteTreatment(req, ctx) {
      const s = sessionOf(ctx);
      await s.store.write(async (w) => {
        const current = await hiveRecordState(w, "treatment", req.id, EventType.TREATMENT);
        await w.apply(deleteTreatment(commandContext(s), current, req.id));
      });
      return create(DeleteTreatmentResponseSchema, {});
    },

    // The register (issue 26): tombstones too, read from the replica (works offline).
    async getTreatmentRegister(req, ctx) {
      const s = sessionOf(ctx);
      if (req.year < 0 || req.year > 9999) throw invalid("year", "year must be 0 … 9999");
      const timeZone = req.timeZone === "" ? "UTC" : req.timeZone;
      if (!isTimeZone(timeZone)) {
        throw invalid("timeZone", "timeZone must be a time zone such as Europe/Berlin");
      }
      const entries = await s.store.read(async (r) => {
        const [treatments, events] = await Promise.all([
          r.list("treatment", { orderBy: [{ column: "id" }], evenDeleted: true }),
          r.list("event", {
            where: [
              { column: "ref_entity", eq: "treatment" },
              { column: "type", eq: EventType.TREATMENT },
            ],
            orderBy: [{ column: "id" }],
            evenDeleted: true,
          }),
        ]);
        return registerEntries(treatments.rows, events.rows, {
          year: req.year,
          timeZone,
          apiaryId: req.apiaryId,
        });
      });
      const asRow = (id: string, values: Record<string, unknown>) =>
        ({ id, scopeId: "", values, clock: {}, deleted: false }) as const;
      return create(GetTreatmentRegisterResponseSchema, {
        entries: entries.map((e) =>
          create(TreatmentRegisterEntrySchema, {
            treatment: toProto(
              TreatmentSchema,
              "treatment",
              asRow(e.id, e.values),
              s.organizationId,
            ),
            versions: e.versions.map((v) =>
              create(TreatmentVersionSchema, {
                treatment: toProto(
                  TreatmentSchema,
                  "treatment",
                  asRow(e.id, v.values),
                  s.organizationId,
                ),
                authorId: v.authorId,
                writtenAt: timestampOrUndefined(v.writtenAt),
              }),
            ),
            deleted: e.deleted,
            deletedBy: e.deletedBy,
            deletedAt: timestampOrUndefined(e.deletedAt),
          }),
        ),
      });
    },
  };
}
