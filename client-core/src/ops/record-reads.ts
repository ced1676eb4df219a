/**
 * The reads the record services share: one live row as its message (Get*, and the answer of a
 * write), and one page of a List*: the request's window over the rows the query selects, the
 * rows as messages, and the page response (paging.ts). The services differ only in the query.
 */
import type { DescMessage, MessageShape } from "@bufbuild/protobuf";
import type { PageRequest, PageResponse } from "@hivekeep/proto";
import { notFound } from "../core/domain-error.ts";
import type { EntityName } from "../core/entities.ts";
import { pageResponse, pageWindow } from "./paging.ts";
import type { ListQuery } from "./query.ts";
import type { ReplicaReader } from "./replica-store.ts";
import type { OpsSession } from "./session.ts";
import { toProto } from "./to-proto.ts";

/** The live row as its message; not_found when it does not exist (or was deleted). */
export async function getRecord<Desc extends DescMessage>(
  r: ReplicaReader,
  entity: EntityName,
  schema: Desc,
  organizationId: string,
  id: string,
): Promise<MessageShape<Desc>> {
  const row = await r.get(entity, id);
  if (!row) throw notFound(entity, id);
  return toProto(schema, entity, row, organizationId);
}

export async function listPage<Desc extends DescMessage>(
  s: OpsSession,
  entity: EntityName,
  schema: Desc,
  request: PageRequest | undefined,
  query: Omit<ListQuery, "offset" | "limit">,
): Promise<{ items: MessageShape<Desc>[]; page: PageResponse }> {
  const window = pageWindow(request);
  const { rows, total } = await s.store.read((r) => r.list(entity, { ...query, ...window }));
  return {
    items: rows.map((row) => toProto(schema, entity, row, s.organizationId)),
    page: pageResponse(window, rows.length, total),
  };
}
