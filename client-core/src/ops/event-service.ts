/**
 * EventService (contract §6, §4.9) over a replica: the event log, newest first, filtered by
 * apiary, hive and queen ("" = any). Events of the same instant come in reverse recording order:
 * the HLC stamp of the event's `type` (written once: events are append-only) breaks the tie, so a
 * QUEEN_INTRODUCED is listed before the QUEEN_REPLACED recorded just before it. ListEvents is the
 * one list without pages: a limit (default 100, capped at 1000, negative is invalid_argument;
 * core/limits.ts).
 */
import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  EventSchema,
  type EventService,
  GetEventResponseSchema,
  ListEventsResponseSchema,
} from "@hivekeep/proto";
import { notFound } from "../core/domain-error.ts";
import { defaultEventLimit, maxEventLimit, requestedLimit } from "../core/limits.ts";
import type { Filter } from "./query.ts";
import type { SessionOf } from "./session.ts";
import { toProto } from "./to-proto.ts";

export function eventService(sessionOf: SessionOf): ServiceImpl<typeof EventService> {
  return {
    async listEvents(req, ctx) {
      const s = sessionOf(ctx);
      const limit = requestedLimit(req.limit, defaultEventLimit, maxEventLimit, "limit");
      const where: Filter[] = [];
      if (req.apiaryId !== "") where.push({ column: "apiary_id", eq: req.apiaryId });
      if (req.hiveId !== "") where.push({ column: "hive_id", eq: req.hiveId });
      if (req.queenId !== "") where.push({ column: "queen_id", eq: req.queenId });
      const { rows } = await s.store.read((r) =>
        r.list("event", {
          where,
          orderBy: [
            { column: "date", desc: true },
            { column: "type", stamp: true, desc: true },
            { column: "id", desc: true },
          ],
          limit,
        }),
      );
      return create(ListEventsResponseSchema, {
        events: rows.map((row) => toProto(EventSchema, "event", row, s.organizationId)),
      });
    },

    async getEvent(req, ctx) {
      const s = sessionOf(ctx);
      const row = await s.store.read((r) => r.get("event", req.id));
      if (!row) throw notFound("event", req.id);
      return create(GetEventResponseSchema, {
        event: toProto(EventSchema, "event", row, s.organizationId),
      });
    },
  };
}
