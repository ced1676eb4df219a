/**
 * InspectionService (contract §4.4) over a replica: create (freezing the hive's apiary and
 * reigning queen as of the date, default now), update (overwrites; a changed date re-freezes;
 * the event follows), delete (with its event), get, list newest first, and the photo operations
 * on the OR-set column `photo_keys` (a photo already there / not there writes nothing).
 */
import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  AddInspectionPhotoResponseSchema,
  CreateInspectionResponseSchema,
  DeleteInspectionResponseSchema,
  GetInspectionResponseSchema,
  InspectionSchema,
  type InspectionService,
  ListInspectionsResponseSchema,
  RemoveInspectionPhotoResponseSchema,
  UpdateInspectionResponseSchema,
} from "@hivekeep/proto";
import { EventType } from "../core/commands/event.ts";
import {
  addInspectionPhoto,
  createInspection,
  deleteInspection,
  type InspectionState,
  removeInspectionPhoto,
  updateInspection,
} from "../core/commands/inspection.ts";
import { emptyOrSet, type OrSetState } from "../core/or-set.ts";
import { createReadings } from "./create-readings.ts";
import { hiveAsOf } from "./hive-at.ts";
import { getReadingSeries } from "./reading-series.ts";
import { getRecord, listPage } from "./record-reads.ts";
import { hiveRecordState } from "./record-state.ts";
import type { ReplicaReader } from "./replica-store.ts";
import { commandContext, type OpsSession, type SessionOf } from "./session.ts";
import { isoOr } from "./timestamps.ts";
import { withoutUnchanged } from "./unchanged.ts";

const mustGetInspection = (r: ReplicaReader, organizationId: string, id: string) =>
  getRecord(r, "inspection", InspectionSchema, organizationId, id);

type PhotoCommand = typeof addInspectionPhoto;

/** Runs a photo command on the stored inspection and returns it as stored afterwards. */
function photoOp(s: OpsSession, command: PhotoCommand, id: string, photo: string) {
  return s.store.write(async (w) => {
    const row = id === "" ? undefined : await w.get("inspection", id);
    const state: InspectionState | undefined = row && {
      id,
      scopeId: row.scopeId,
      photoKeys: (row.values.photo_keys as OrSetState | undefined) ?? emptyOrSet(),
    };
    const changes = command(commandContext(s), state, id, photo);
    if (changes.length > 0) await w.apply(changes);
    return mustGetInspection(w, s.organizationId, id);
  });
}

export function inspectionService(sessionOf: SessionOf): ServiceImpl<typeof InspectionService> {
  return {
    async listInspections(req, ctx) {
      const s = sessionOf(ctx);
      const { items, page } = await listPage(s, "inspection", InspectionSchema, req.page, {
        where: req.hiveId === "" ? [] : [{ column: "hive_id", eq: req.hiveId }],
        orderBy: [
          { column: "date", desc: true },
          { column: "id", desc: true },
        ],
      });
      return create(ListInspectionsResponseSchema, { inspections: items, page });
    },

    async getInspection(req, ctx) {
      const s = sessionOf(ctx);
      const inspection = await s.store.read((r) => mustGetInspection(r, s.organizationId, req.id));
      return create(GetInspectionResponseSchema, { inspection });
    },

    async createInspection(req, ctx) {
      const s = sessionOf(ctx);
      const cc = commandContext(s);
      const date = isoOr(req.date, cc.now, "date");
      const inspection = await s.store.write(async (w) => {
        const hive = await hiveAsOf(w, req.hiveId, date);
        const { id, changes } = createInspection(cc, hive, { ...req, date });
        await w.apply(changes);
        return mustGetInspection(w, s.organizationId, id);
      });
      return create(CreateInspectionResponseSchema, { inspection });
    },

    async addInspectionPhoto(req, ctx) {
      const s = sessionOf(ctx);
      const inspection = await photoOp(s, addInspectionPhoto, req.inspectionId, req.photo);
      return create(AddInspectionPhotoResponseSchema, { inspection });
    },

    async removeInspectionPhoto(req, ctx) {
      const s = sessionOf(ctx);
      const inspection = await photoOp(s, removeInspectionPhoto, req.inspectionId, req.photo);
      return create(RemoveInspectionPhotoResponseSchema, { inspection });
    },

    // hive_id never changes (a different one is ignored); a changed date re-freezes the context.
    async updateInspection(req, ctx) {
      const s = sessionOf(ctx);
      const cc = commandContext(s);
      const sent = req.inspection;
      const id = sent?.id ?? "";
      const inspection = await s.store.write(async (w) => {
        const input = sent && { ...sent, date: isoOr(sent.date, cc.now, "inspection.date") };
        const current = await hiveRecordState(w, "inspection", id, EventType.INSPECTION);
        const asOf = current && input && (await hiveAsOf(w, current.hiveId, input.date));
        const changes = updateInspection(cc, current, asOf, input);
        await w.apply(await withoutUnchanged(w, changes));
        return mustGetInspection(w, s.organizationId, id);
      });
      return create(UpdateInspectionResponseSchema, { inspection });
    },

    async createReadings(req, ctx) {
      return createReadings(sessionOf(ctx), req);
    },

    async getReadingSeries(req, ctx) {
      return getReadingSeries(sessionOf(ctx), req);
    },

    async deleteInspection(req, ctx) {
      const s = sessionOf(ctx);
      await s.store.write(async (w) => {
        const current = await hiveRecordState(w, "inspection", req.id, EventType.INSPECTION);
        await w.apply(deleteInspection(commandContext(s), current, req.id));
      });
      return create(DeleteInspectionResponseSchema, {});
    },
  };
}
