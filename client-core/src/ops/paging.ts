/**
 * Offset pagination of every List* except ListEvents (contract §8): page_size
 * default 50, capped at 500 (core/limits.ts); page_token is the decimal offset of
 * the first row (core/cursor.ts); next_page_token only when the page is full and
 * more rows exist.
 */
import { create } from "@bufbuild/protobuf";
import { type PageRequest, type PageResponse, PageResponseSchema } from "@hivekeep/proto";
import { formatPageToken, parsePageToken } from "../core/cursor.ts";
import { defaultPageSize, maxPageSize, requestedLimit } from "../core/limits.ts";

export interface PageWindow {
  readonly offset: number;
  readonly limit: number;
}

export function pageWindow(page: PageRequest | undefined): PageWindow {
  const limit = requestedLimit(page?.pageSize ?? 0, defaultPageSize, maxPageSize, "page.pageSize");
  return { offset: parsePageToken(page?.pageToken ?? ""), limit };
}

export function pageResponse(window: PageWindow, returned: number, total: number): PageResponse {
  const next = window.offset + returned;
  const full = returned === window.limit;
  return create(PageResponseSchema, {
    total,
    nextPageToken: full && next < total ? formatPageToken(next) : "",
  });
}
