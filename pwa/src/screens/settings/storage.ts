/** How much the device's storage holds, in words a person reads at a glance. */
import { unbreakable } from "../../format.ts";

/** Bytes as kB, MB or GB (decimal units, as phones and browsers show them). */
export function formatBytes(locale: string, bytes: number): string {
  const units = [
    ["gigabyte", 1e9],
    ["megabyte", 1e6],
    ["kilobyte", 1e3],
  ] as const;
  const [unit, size] = units.find(([, size]) => bytes >= size) ?? ["kilobyte", 1e3];
  const value = bytes / size;
  return unbreakable(
    new Intl.NumberFormat(locale, {
      style: "unit",
      unit,
      maximumFractionDigits: value < 10 ? 1 : 0,
    }).format(value),
  );
}

export interface StorageInfo {
  readonly usage: number | undefined;
  readonly quota: number | undefined;
  /** undefined: the browser cannot tell. */
  readonly persisted: boolean | undefined;
}

/** What navigator.storage says (all undefined where it is missing). */
export async function readStorage(storage: StorageManager | undefined): Promise<StorageInfo> {
  const [estimate, persisted] = await Promise.all([
    storage?.estimate?.().catch(() => undefined),
    storage?.persisted?.().catch(() => undefined),
  ]);
  return { usage: estimate?.usage, quota: estimate?.quota, persisted };
}
