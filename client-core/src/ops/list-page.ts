/**
 * One page of a record List*: the request's window over the rows the query selects, the rows as
 * messages, and the page response (paging.ts). The services differ only in the query.
 */
import type { DescMessage, MessageShape } from "@bufbuild/protobuf";
import type { PageRequest, PageResponse } from "@hivekeep/proto";
import type { EntityName } from "../core/entities.ts";
import { pageResponse, pageWindow } from "./paging.ts";
import type { ListQuery } from "./query.ts";
import type { OpsSession } from "./session.ts";
import { toProto } from "./to-proto.ts";

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
