/**
 * Offset pagination of every List* except ListEvents (contract §8): page_size
 * default 50, capped at 500; page_token is the decimal offset of the first
 * row; next_page_token only when the page is full and more rows exist.
 */
import { create } from "@bufbuild/protobuf";
import { type PageRequest, type PageResponse, PageResponseSchema } from "@hivekeep/proto";
import { quote } from "../core/quote.ts";
import { invalidArgument } from "./errors.ts";

export const defaultPageSize = 50;
export const maxPageSize = 500;

export interface PageWindow {
  readonly offset: number;
  readonly limit: number;
}

export function pageWindow(page: PageRequest | undefined): PageWindow {
  const size = page?.pageSize ?? 0;
  if (size < 0) throw invalidArgument("page.pageSize must not be negative");
  const token = page?.pageToken ?? "";
  if (token !== "" && !/^\d{1,15}$/.test(token)) {
    throw invalidArgument(`page.pageToken ${quote(token)} is not valid; pass back nextPageToken`);
  }
  return {
    offset: token === "" ? 0 : Number(token),
    limit: size === 0 ? defaultPageSize : Math.min(size, maxPageSize),
  };
}

export function pageResponse(window: PageWindow, returned: number, total: number): PageResponse {
  const next = window.offset + returned;
  const full = returned === window.limit;
  return create(PageResponseSchema, {
    total,
    nextPageToken: full && next < total ? String(next) : "",
  });
}
