/**
 * Records for a component test, written through the device client's own services (so the
 * replica holds what the app itself would have written), each returning the record it made:
 *
 *   const home = await seed.apiary(client, { name: "Home" });
 *   const hive = await seed.hive(client, { apiaryId: home.id, name: "Hive 1" });
 *   await seed.inspection(client, { hiveId: hive.id, date: at(daysAgo(4)), queenSeen: true });
 */
import type { HivekeepClient } from "@hivekeep/client-core";

type Request<F extends (request: never) => unknown> = Parameters<F>[0];

function made<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the service returned no ${what}`);
  return value;
}

export const seed = {
  apiary: async (c: HivekeepClient, r: Request<HivekeepClient["apiaries"]["createApiary"]>) =>
    made((await c.apiaries.createApiary(r)).apiary, "apiary"),
  hive: async (c: HivekeepClient, r: Request<HivekeepClient["hives"]["createHive"]>) =>
    made((await c.hives.createHive(r)).hive, "hive"),
  inspection: async (
    c: HivekeepClient,
    r: Request<HivekeepClient["inspections"]["createInspection"]>,
  ) => made((await c.inspections.createInspection(r)).inspection, "inspection"),
  queen: async (c: HivekeepClient, r: Request<HivekeepClient["queens"]["createQueen"]>) =>
    made((await c.queens.createQueen(r)).queen, "queen"),
  task: async (c: HivekeepClient, r: Request<HivekeepClient["tasks"]["createTask"]>) =>
    made((await c.tasks.createTask(r)).task, "task"),
  treatment: async (
    c: HivekeepClient,
    r: Request<HivekeepClient["treatments"]["createTreatment"]>,
  ) => made((await c.treatments.createTreatment(r)).treatment, "treatment"),
  harvest: async (c: HivekeepClient, r: Request<HivekeepClient["harvests"]["createHarvest"]>) =>
    made((await c.harvests.createHarvest(r)).harvest, "harvest"),
};
