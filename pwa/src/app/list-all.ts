/**
 * Every page of a local List call (the replica answers fast, so a screen shows the whole list
 * and filters it in place).
 *
 *   listAll((page) => c.hives.listHives({ page }), (r) => r.hives)
 *
 * The lists many screens need have their own: `allHives(c)` and `allApiaries(c)`, read inside
 * an area's query (`screens/<area>/queries.ts`, e.g. `useApiaryList()`).
 */
import type { HivekeepClient } from "@hivekeep/client-core";
import { maxPageSize } from "@hivekeep/client-core/core";
import type { Apiary, Hive, PageResponse } from "@hivekeep/proto";

export async function listAll<R extends { page?: PageResponse }, T>(
  fetchPage: (page: { pageSize: number; pageToken: string }) => Promise<R>,
  itemsOf: (response: R) => readonly T[],
): Promise<T[]> {
  const out: T[] = [];
  let pageToken = "";
  for (;;) {
    const res = await fetchPage({ pageSize: maxPageSize, pageToken });
    out.push(...itemsOf(res));
    pageToken = res.page?.nextPageToken ?? "";
    if (pageToken === "") return out;
  }
}

/** Every hive on the device, in the service's order. */
export function allHives(c: HivekeepClient): Promise<Hive[]> {
  return listAll(
    (page) => c.hives.listHives({ page }),
    (r) => r.hives,
  );
}

/** Every apiary on the device, in the service's order. */
export function allApiaries(c: HivekeepClient): Promise<Apiary[]> {
  return listAll(
    (page) => c.apiaries.listApiaries({ page }),
    (r) => r.apiaries,
  );
}
