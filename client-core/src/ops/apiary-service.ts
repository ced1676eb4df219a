/**
 * ApiaryService (contract §4.2) over a replica: list by name (ASCII case folded), get, create,
 * update (overwrites every field), delete (refused while live hives stand there). Every apiary
 * carries hive_count, the number of live hives standing there.
 */
import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  type Apiary,
  ApiarySchema,
  type ApiaryService,
  CreateApiaryResponseSchema,
  DeleteApiaryResponseSchema,
  GetApiaryResponseSchema,
  ListApiariesResponseSchema,
  UpdateApiaryResponseSchema,
} from "@hivekeep/proto";
import {
  type ApiaryState,
  createApiary,
  deleteApiary,
  updateApiary,
} from "../core/commands/apiary.ts";
import { notFound } from "../core/domain-error.ts";
import { pageResponse, pageWindow } from "./paging.ts";
import type { ReplicaReader, StoredRow } from "./replica-store.ts";
import { commandContext, type SessionOf } from "./session.ts";
import { toProto } from "./to-proto.ts";
import { withoutUnchanged } from "./unchanged.ts";

/** An apiary as proto, with the number of live hives standing there. */
const apiaryProto = (
  row: StoredRow,
  organizationId: string,
  counts: ReadonlyMap<string, number>,
): Apiary =>
  toProto(ApiarySchema, "apiary", row, organizationId, {
    hive_count: counts.get(row.id) ?? 0,
  });

const hiveCounts = (r: ReplicaReader, apiaryIds: readonly string[]) =>
  r.countBy("hive", "apiary_id", apiaryIds);

async function mustGetApiary(r: ReplicaReader, organizationId: string, id: string) {
  const row = await r.get("apiary", id);
  if (!row) throw notFound("apiary", id);
  return apiaryProto(row, organizationId, await hiveCounts(r, [id]));
}

/** The state the apiary commands need, read inside the write. */
async function apiaryState(r: ReplicaReader, id: string): Promise<ApiaryState | undefined> {
  const row = await r.get("apiary", id);
  if (!row) return undefined;
  const counts = await hiveCounts(r, [id]);
  return { id, liveHives: counts.get(id) ?? 0 };
}

export function apiaryService(sessionOf: SessionOf): ServiceImpl<typeof ApiaryService> {
  return {
    async listApiaries(req, ctx) {
      const s = sessionOf(ctx);
      const window = pageWindow(req.page);
      const { rows, counts, total } = await s.store.read(async (r) => {
        const { rows, total } = await r.list("apiary", {
          orderBy: [{ column: "name", fold: "ascii" }, { column: "id" }],
          ...window,
        });
        const counts = await hiveCounts(
          r,
          rows.map((row) => row.id),
        );
        return { rows, counts, total };
      });
      return create(ListApiariesResponseSchema, {
        apiaries: rows.map((row) => apiaryProto(row, s.organizationId, counts)),
        page: pageResponse(window, rows.length, total),
      });
    },

    async getApiary(req, ctx) {
      const s = sessionOf(ctx);
      const apiary = await s.store.read((r) => mustGetApiary(r, s.organizationId, req.id));
      return create(GetApiaryResponseSchema, { apiary });
    },

    async createApiary(req, ctx) {
      const s = sessionOf(ctx);
      const apiary = await s.store.write(async (w) => {
        const { id, changes } = createApiary(commandContext(s), req);
        await w.apply(changes);
        return mustGetApiary(w, s.organizationId, id);
      });
      return create(CreateApiaryResponseSchema, { apiary });
    },

    async updateApiary(req, ctx) {
      const s = sessionOf(ctx);
      const apiary = await s.store.write(async (w) => {
        const state = await apiaryState(w, req.id);
        await w.apply(
          await withoutUnchanged(w, updateApiary(commandContext(s), state, req.id, req)),
        );
        return mustGetApiary(w, s.organizationId, req.id);
      });
      return create(UpdateApiaryResponseSchema, { apiary });
    },

    async deleteApiary(req, ctx) {
      const s = sessionOf(ctx);
      await s.store.write(async (w) => {
        const state = await apiaryState(w, req.id);
        await w.apply(deleteApiary(commandContext(s), state, req.id));
      });
      return create(DeleteApiaryResponseSchema, {});
    },
  };
}
