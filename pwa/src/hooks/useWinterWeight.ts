/**
 * The winter weight below which a hive "may be starving" (issue 29): one threshold for all the
 * beekeeper's hives, kept on this device (localStorage, per organization). No record of the
 * contract holds a person's settings, and a new one would change what Pull answers (the sync's
 * work, not the app's); see docs/decisions.md. Unset (undefined) means no starving alert.
 */
import { readSetting, useSetting, writeSetting } from "./local-setting.ts";

export const winterWeightKey = (organizationId: string): string =>
  `hivekeep.winterWeightKg.${organizationId}`;

/** The threshold in kg, or undefined when unset (or not a positive number). */
export function readWinterWeight(organizationId: string): number | undefined {
  const kg = Number(readSetting(winterWeightKey(organizationId)));
  return Number.isFinite(kg) && kg > 0 ? kg : undefined;
}

export function writeWinterWeight(organizationId: string, kg: number | undefined): void {
  writeSetting(
    winterWeightKey(organizationId),
    kg !== undefined && kg > 0 ? String(kg) : undefined,
  );
}

/** The winter weight threshold of this organization on this device (undefined: unset). */
export function useWinterWeight(organizationId: string): number | undefined {
  return useSetting(() => readWinterWeight(organizationId));
}
