/**
 * The print screens' live data, from the replica (offline): the treatment register of a year
 * and apiary with the names it prints, and a hive's stock card.
 */
import { harvestWithdrawal } from "@hivekeep/client-core/core";
import type {
  Apiary,
  Harvest,
  Hive,
  Inspection,
  Queen,
  Treatment,
  TreatmentRegisterEntry,
} from "@hivekeep/proto";
import { type Live, orMissing, useLiveQuery } from "../../app/client.tsx";
import { allApiaries, allHives, listAll } from "../../app/list-all.ts";
import { deviceTimeZone } from "../../format.ts";
import { reigningQueen } from "../hives/hive-logic.ts";

export interface RegisterData {
  readonly entries: readonly TreatmentRegisterEntry[];
  /** Every apiary (the choice), and names of hives and apiaries, deleted ones included. */
  readonly apiaries: readonly Apiary[];
  readonly hiveNames: ReadonlyMap<string, string>;
  readonly apiaryNames: ReadonlyMap<string, string>;
  /** The selection's harvests taken inside a withdrawal period, with that treatment. */
  readonly inWithdrawal: readonly { harvest: Harvest; treatment: Treatment }[];
}

/** The year of a harvest's date on this device (as the register files treatments). */
const yearOf = (h: Harvest) => (h.date ? new Date(Number(h.date.seconds) * 1000).getFullYear() : 0);

export function useRegister(year: number, apiaryId: string): Live<RegisterData> {
  return useLiveQuery(
    async (c) => {
      const [{ entries }, hives, apiaries, harvests, treatments] = await Promise.all([
        c.treatments.getTreatmentRegister({ year, apiaryId, timeZone: deviceTimeZone() }),
        allHives(c),
        allApiaries(c),
        listAll(
          (page) => c.harvests.listHarvests({ apiaryId, page }),
          (r) => r.harvests,
        ),
        listAll(
          (page) => c.treatments.listTreatments({ page }),
          (r) => r.treatments,
        ),
      ]);
      const hiveNames = new Map(hives.map((h) => [h.id, h.name]));
      const apiaryNames = new Map(apiaries.map((a) => [a.id, a.name]));
      // A deleted hive's treatments are legal records: its name as the replica last held it.
      const missing = new Set(
        entries
          .map((e) => e.treatment?.hiveId ?? "")
          .filter((id) => id !== "" && !hiveNames.has(id)),
      );
      for (const id of missing) {
        const gone = await c.removed.hive(id);
        if (gone) hiveNames.set(id, gone.record.name);
      }
      const inWithdrawal = harvests
        .filter((h) => year === 0 || yearOf(h) === year)
        .flatMap((harvest) => {
          const treatment = harvestWithdrawal(harvest, treatments);
          return treatment ? [{ harvest, treatment }] : [];
        })
        .reverse();
      return { entries, apiaries, hiveNames, apiaryNames, inWithdrawal };
    },
    [year, apiaryId],
  );
}

export interface StockCardData {
  readonly hive: Hive;
  readonly apiary: Apiary | undefined;
  readonly queen: Queen | undefined;
  /** Oldest first: the card is read down the season. */
  readonly inspections: readonly Inspection[];
}

export function useStockCard(hiveId: string): Live<StockCardData> {
  return useLiveQuery(
    async (c): Promise<StockCardData | undefined> => {
      const hive =
        (await orMissing(c.hives.getHive({ id: hiveId }).then((r) => r.hive))) ??
        (await c.removed.hive(hiveId))?.record;
      if (hive === undefined) return undefined;
      const [apiary, queens, inspections] = await Promise.all([
        orMissing(c.apiaries.getApiary({ id: hive.apiaryId }).then((r) => r.apiary)),
        listAll(
          (page) => c.queens.listQueens({ hiveId, page }),
          (r) => r.queens,
        ),
        // The stock card lists visits: a scale's readings are no entry of it (issue 29).
        c.history.hive(hiveId).then((h) => h.visits),
      ]);
      return {
        hive,
        apiary,
        queen: reigningQueen(queens),
        inspections: [...inspections].reverse(),
      };
    },
    [hiveId],
  );
}
