/**
 * EventService (contract §6, §4.9): the event log, newest first. ListEvents
 * is the one list that is not paginated: it takes a limit (default 100,
 * capped at 1000) instead of a page.
 */
import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import { entities, notFound } from "@hivekeep/client-core/core";
import {
  type Event,
  EventSchema,
  type EventService,
  GetEventResponseSchema,
  ListEventsResponseSchema,
} from "@hivekeep/proto";
import type { Row } from "../db/db.ts";
import { listEvents } from "../store/events.ts";
import { getLive } from "../store/rows.ts";
import { callerOf } from "./context.ts";
import type { Deps } from "./deps.ts";
import { invalidArgument } from "./errors.ts";
import { rowToProto } from "./row-to-proto.ts";

export const defaultEventLimit = 100;
export const maxEventLimit = 1000;

/** The number of events to return: 0 = the default; larger than the maximum is capped. */
export function eventLimit(requested: number): number {
  if (requested < 0) throw invalidArgument("limit must not be negative");
  return requested === 0 ? defaultEventLimit : Math.min(requested, maxEventLimit);
}

export const eventToProto = (row: Row): Event => rowToProto(EventSchema, entities.event, row);

export function eventService(deps: Deps): ServiceImpl<typeof EventService> {
  const { db } = deps;
  return {
    async listEvents(req, ctx) {
      const { organizationId } = callerOf(ctx);
      const rows = await listEvents(db, organizationId, req, eventLimit(req.limit));
      return create(ListEventsResponseSchema, { events: rows.map(eventToProto) });
    },

    async getEvent(req, ctx) {
      const { organizationId } = callerOf(ctx);
      const row = await getLive(db, entities.event, organizationId, req.id);
      if (!row) throw notFound("event", req.id);
      return create(GetEventResponseSchema, { event: eventToProto(row) });
    },
  };
}
