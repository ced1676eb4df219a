/**
 * Every page of a local List call (the replica answers fast, so a screen shows the whole list
 * and filters it in place).
 *
 *   listAll((page) => c.hives.listHives({ page }), (r) => r.hives)
 */
import type { PageResponse } from "@hivekeep/proto";

export async function listAll<R extends { page?: PageResponse }, T>(
  fetchPage: (page: { pageSize: number; pageToken: string }) => Promise<R>,
  itemsOf: (response: R) => readonly T[],
): Promise<T[]> {
  const out: T[] = [];
  let pageToken = "";
  for (;;) {
    const res = await fetchPage({ pageSize: 500, pageToken });
    out.push(...itemsOf(res));
    pageToken = res.page?.nextPageToken ?? "";
    if (pageToken === "") return out;
  }
}
