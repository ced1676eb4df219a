/**
 * HiveService (contract §3, §4.3, §6) over a replica: list by name, get, create (opens the first
 * placement at the set-up date, default now), update, relocate (closes the open placement, opens one at the target), delete.
 */
import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  CreateHiveResponseSchema,
  DeleteHiveResponseSchema,
  GetHiveResponseSchema,
  HiveSchema,
  type HiveService,
  ListHivesResponseSchema,
  RelocateHiveResponseSchema,
  UpdateHiveResponseSchema,
} from "@hivekeep/proto";
import {
  createHive,
  deleteHive,
  type HiveState,
  relocateHive,
  updateHive,
} from "../core/commands/hive.ts";
import { hiveAt } from "./hive-at.ts";
import { getRecord, listPage } from "./record-reads.ts";
import type { ReplicaReader, StoredRow } from "./replica-store.ts";
import { commandContext, type SessionOf } from "./session.ts";
import { isoOr } from "./timestamps.ts";
import { withoutUnchanged } from "./unchanged.ts";

const text = (v: unknown): string => (typeof v === "string" ? v : "");

export const mustGetHive = (r: ReplicaReader, organizationId: string, id: string) =>
  getRecord(r, "hive", HiveSchema, organizationId, id);

/**
 * The state the hive commands need, read inside the write: the hive, its open placements and
 * the queen reigning at `at` (with RelocateHive, every queen of the hive, which it re-scopes).
 */
async function hiveState(
  r: ReplicaReader,
  id: string,
  at: string,
  options: { withQueens?: boolean; withOpenTasks?: boolean } = {},
): Promise<HiveState | undefined> {
  const context = id === "" ? undefined : await hiveAt(r, id, at);
  if (!context) return undefined;
  const { hive } = context;
  const { rows } = await r.list("placement", {
    where: [
      { column: "hive_id", eq: id },
      { column: "ended_at", eq: null },
    ],
    orderBy: [{ column: "started_at" }, { column: "id" }],
  });
  const queens = options.withQueens
    ? (
        await r.list("queen", {
          where: [{ column: "hive_id", eq: id }],
          orderBy: [{ column: "id" }],
        })
      ).rows
    : [];
  const tasks = options.withOpenTasks
    ? (
        await r.list("task", {
          where: [
            { column: "hive_id", eq: id },
            { column: "done", eq: false },
          ],
          orderBy: [{ column: "id" }],
        })
      ).rows
    : [];
  return {
    id,
    name: text(hive.values.name),
    apiaryId: text(hive.values.apiary_id),
    status: Number(hive.values.status ?? 0),
    queenId: context.queenId,
    openPlacements: rows.map((p: StoredRow) => ({
      id: p.id,
      apiaryId: text(p.values.apiary_id),
      startedAt: text(p.values.started_at),
    })),
    ...(options.withQueens ? { queenIds: queens.map((q) => q.id) } : {}),
    ...(options.withOpenTasks
      ? { openTasks: tasks.map((t) => ({ id: t.id, scopeId: t.scopeId })) }
      : {}),
  };
}

export function hiveService(sessionOf: SessionOf): ServiceImpl<typeof HiveService> {
  return {
    async listHives(req, ctx) {
      const s = sessionOf(ctx);
      const { items, page } = await listPage(s, "hive", HiveSchema, req.page, {
        where: req.apiaryId === "" ? [] : [{ column: "apiary_id", eq: req.apiaryId }],
        orderBy: [{ column: "name", fold: "ascii" }, { column: "id" }],
      });
      return create(ListHivesResponseSchema, { hives: items, page });
    },

    async getHive(req, ctx) {
      const s = sessionOf(ctx);
      const hive = await s.store.read((r) => mustGetHive(r, s.organizationId, req.id));
      return create(GetHiveResponseSchema, { hive });
    },

    async createHive(req, ctx) {
      const s = sessionOf(ctx);
      const hive = await s.store.write(async (w) => {
        const cc = commandContext(s);
        const apiary = req.apiaryId === "" ? undefined : await w.get("apiary", req.apiaryId);
        const { id, changes } = createHive(cc, apiary, {
          ...req,
          date: isoOr(req.date, cc.now, "date"),
        });
        await w.apply(changes);
        return mustGetHive(w, s.organizationId, id);
      });
      return create(CreateHiveResponseSchema, { hive });
    },

    async updateHive(req, ctx) {
      const s = sessionOf(ctx);
      const hive = await s.store.write(async (w) => {
        const cc = commandContext(s);
        const id = req.hive?.id ?? "";
        const state = req.hive ? await hiveState(w, id, cc.now.toISOString()) : undefined;
        await w.apply(await withoutUnchanged(w, updateHive(cc, state, req.hive)));
        return mustGetHive(w, s.organizationId, id);
      });
      return create(UpdateHiveResponseSchema, { hive });
    },

    async relocateHive(req, ctx) {
      const s = sessionOf(ctx);
      const hive = await s.store.write(async (w) => {
        const cc = commandContext(s);
        const date = isoOr(req.date, cc.now, "date");
        const state = await hiveState(w, req.id, date, { withQueens: true });
        const target =
          req.targetApiaryId === "" ? undefined : await w.get("apiary", req.targetApiaryId);
        const changes = relocateHive(
          cc,
          state,
          target && { id: target.id, name: text(target.values.name) },
          { id: req.id, targetApiaryId: req.targetApiaryId, date },
        );
        await w.apply(changes);
        return mustGetHive(w, s.organizationId, req.id);
      });
      return create(RelocateHiveResponseSchema, { hive });
    },

    async deleteHive(req, ctx) {
      const s = sessionOf(ctx);
      await s.store.write(async (w) => {
        const cc = commandContext(s);
        const state = await hiveState(w, req.id, cc.now.toISOString(), { withOpenTasks: true });
        await w.apply(deleteHive(cc, state, req.id));
      });
      return create(DeleteHiveResponseSchema, {});
    },
  };
}
