/**
 * InspectionService (contract §4.4): create (freezing apiary and queen as of
 * the date), get, list newest first, and the photo operations on the OR-set
 * column `photo_keys`.
 */
import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  addInspectionPhoto,
  type Change,
  createInspection,
  emptyOrSet,
  entities,
  type InspectionState,
  notFound,
  type OrSetState,
  parseRfc3339,
  removeInspectionPhoto,
} from "@hivekeep/client-core/core";
import {
  AddInspectionPhotoResponseSchema,
  CreateInspectionResponseSchema,
  GetInspectionResponseSchema,
  type Inspection,
  InspectionSchema,
  type InspectionService,
  ListInspectionsResponseSchema,
  RemoveInspectionPhotoResponseSchema,
} from "@hivekeep/proto";
import type { Queryable, Row } from "../db/db.ts";
import { hiveAt } from "../store/hive-context.ts";
import { getLive, listLive } from "../store/rows.ts";
import { writeTenant } from "../store/tenant-write.ts";
import { type Caller, callerOf } from "./context.ts";
import { commandContext, type Deps, rowForEdit } from "./deps.ts";
import { isoOr } from "./mapping.ts";
import { pageResponse, pageWindow } from "@hivekeep/client-core/ops";
import { rowToProto } from "./row-to-proto.ts";

export const inspectionToProto = (row: Row): Inspection =>
  rowToProto(InspectionSchema, entities.inspection, row);

async function mustGetInspection(q: Queryable, organizationId: string, id: string) {
  const row = await getLive(q, entities.inspection, organizationId, id);
  if (!row) throw notFound("inspection", id);
  return inspectionToProto(row);
}

type PhotoCommand = typeof addInspectionPhoto;

export function inspectionService(deps: Deps): ServiceImpl<typeof InspectionService> {
  const { db } = deps;

  /**
   * Runs a photo command on the stored inspection and returns it as stored
   * afterwards; a no-op (photo already there / not there) writes nothing.
   */
  async function photoOp(caller: Caller, command: PhotoCommand, id: string, photo: string) {
    return writeTenant(db, caller.organizationId, async (w) => {
      const row =
        id === ""
          ? undefined
          : await rowForEdit(deps, w.tx, entities.inspection, caller.organizationId, id);
      const state: InspectionState | undefined = row && {
        id,
        scopeId: String(row.scope_id),
        photoKeys: (row.photo_keys as OrSetState | null) ?? emptyOrSet(),
      };
      const changes: Change[] = command(commandContext(deps, caller), state, id, photo);
      if (changes.length > 0) await w.apply(changes);
      return mustGetInspection(w.tx, caller.organizationId, id);
    });
  }

  return {
    async listInspections(req, ctx) {
      const { organizationId } = callerOf(ctx);
      const window = pageWindow(req.page);
      const { rows, total } = await listLive(db, entities.inspection, organizationId, {
        equals: { hive_id: req.hiveId },
        orderBy: "date desc, id desc",
        ...window,
      });
      return create(ListInspectionsResponseSchema, {
        inspections: rows.map(inspectionToProto),
        page: pageResponse(window, rows.length, total),
      });
    },

    async getInspection(req, ctx) {
      const { organizationId } = callerOf(ctx);
      return create(GetInspectionResponseSchema, {
        inspection: await mustGetInspection(db, organizationId, req.id),
      });
    },

    async createInspection(req, ctx) {
      const caller = callerOf(ctx);
      const cctx = commandContext(deps, caller);
      const date = isoOr(req.date, cctx.now, "date");
      const inspection = await writeTenant(db, caller.organizationId, async (w) => {
        // An unreadable date is left to the command, which rejects it as invalid_argument.
        const at =
          req.hiveId === "" || "error" in parseRfc3339(date)
            ? undefined
            : await hiveAt(w.tx, caller.organizationId, req.hiveId, date);
        const hive = at && { id: req.hiveId, apiaryId: at.apiaryId, queenId: at.queenId };
        const { id, changes } = createInspection(cctx, hive, { ...req, date });
        await w.apply(changes);
        return mustGetInspection(w.tx, caller.organizationId, id);
      });
      return create(CreateInspectionResponseSchema, { inspection });
    },

    async addInspectionPhoto(req, ctx) {
      const inspection = await photoOp(
        callerOf(ctx),
        addInspectionPhoto,
        req.inspectionId,
        req.photo,
      );
      return create(AddInspectionPhotoResponseSchema, { inspection });
    },

    async removeInspectionPhoto(req, ctx) {
      const inspection = await photoOp(
        callerOf(ctx),
        removeInspectionPhoto,
        req.inspectionId,
        req.photo,
      );
      return create(RemoveInspectionPhotoResponseSchema, { inspection });
    },
  };
}
