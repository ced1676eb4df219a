/**
 * The device's TransferService as the "Your records" screen uses it (issue 26): the backup's
 * text from the replica, the records of a backup, and an import (dry run or for real). The
 * screen talks to this port only; `transferOf(client)` is it over the device client's
 * `transfer` service, the same operation the server mounts.
 */
import type { HivekeepClient } from "@hivekeep/client-core";
import { type EntityName, isEntityName, readBackup } from "@hivekeep/client-core/core";
import type { ImportProblem, RecordSet } from "@hivekeep/client-core/spreadsheets";
import type { ImportRecordsResponse } from "@hivekeep/proto";
import { createContext, useContext } from "react";
import { useClient } from "../../app/client.tsx";
import { deviceTimeZone } from "../../format.ts";

export type ImportFormat = "hivekeep" | "openbeehive" | "inspections-csv";

export interface KindCount {
  readonly entity: EntityName;
  /** Records the import writes. */
  readonly created: number;
  /** Records of the file the organization already has (left as they are). */
  readonly existing: number;
}

/** What an import (or its dry run) says about a file. */
export interface ImportSummary {
  readonly format: ImportFormat | "";
  readonly counts: readonly KindCount[];
  readonly problems: readonly ImportProblem[];
  /** "<table>.<column>" of the file with how many records had a value there. */
  readonly notCarried: readonly { readonly key: string; readonly count: number }[];
}

export interface TransferPort {
  /** The Hivekeep backup of the organization, from this device's replica. */
  backupText(): Promise<string>;
  /** The records of a backup's text. */
  recordsOf(backupText: string): RecordSet;
  /** Reads a file and plans its import; with `dryRun` false, writes it (nothing if it has problems). */
  importRecords(content: string, dryRun: boolean): Promise<ImportSummary>;
}

/** The port over the device client's TransferService (the device's replica, offline). */
export function transferOf(client: HivekeepClient): TransferPort {
  return {
    async backupText() {
      const parts: string[] = [];
      for await (const { chunk } of client.transfer.exportBackup({})) parts.push(chunk);
      return parts.join("");
    },
    recordsOf(backupText) {
      const file = readBackup(backupText);
      const first = file.problems[0];
      if (first !== undefined) throw new Error(first.message);
      return file.records;
    },
    async importRecords(content, dryRun) {
      return summaryOf(
        await client.transfer.importRecords({ content, dryRun, timeZone: deviceTimeZone() }),
      );
    },
  };
}

const formats: readonly string[] = ["hivekeep", "openbeehive", "inspections-csv"];
const orUndefined = (s: string): string | undefined => (s === "" ? undefined : s);

/** The service's answer as the screen reads it (proto's "" and 0 for "none" left out). */
export function summaryOf(r: ImportRecordsResponse): ImportSummary {
  return {
    format: formats.includes(r.format) ? (r.format as ImportFormat) : "",
    counts: r.counts.flatMap((c) =>
      isEntityName(c.entity)
        ? [{ entity: c.entity, created: c.created, existing: c.existing }]
        : [],
    ),
    problems: r.problems.map((p) => {
      const entity = isEntityName(p.entity) ? p.entity : undefined;
      const place = {
        line: p.line > 0 ? p.line : undefined,
        column: orUndefined(p.column),
        entity,
        id: orUndefined(p.id),
        path: orUndefined(p.path),
      };
      return {
        message: p.message,
        ...Object.fromEntries(Object.entries(place).filter(([, v]) => v !== undefined)),
      };
    }),
    notCarried: r.notCarried.map((n) => ({ key: n.field, count: n.rows })),
  };
}

const TransferContext = createContext<TransferPort | undefined>(undefined);
export const TransferProvider = TransferContext.Provider;

/** The transfer port: the device client's, unless a test provides one. */
export function useTransfer(): TransferPort {
  const given = useContext(TransferContext);
  const client = useClient();
  return given ?? transferOf(client);
}
