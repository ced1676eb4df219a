/**
 * The winter weight below which a hive "may be starving" (issue 29): one threshold for all the
 * beekeeper's hives, kept on this device (localStorage, per organization). No record of the
 * contract holds a person's settings, and a new one would change what Pull answers (the sync's
 * work, not the app's); see docs/decisions.md. Unset (undefined) means no starving alert.
 */
import { useSyncExternalStore } from "react";

const listeners = new Set<() => void>();
// When localStorage cannot be used (some private modes), the value lives as long as the page.
const fallback = new Map<string, string>();

export const winterWeightKey = (organizationId: string): string =>
  `hivekeep.winterWeightKg.${organizationId}`;

function read(key: string): string | undefined {
  try {
    return window.localStorage.getItem(key) ?? fallback.get(key);
  } catch {
    return fallback.get(key);
  }
}

/** The threshold in kg, or undefined when unset (or not a positive number). */
export function readWinterWeight(organizationId: string): number | undefined {
  const kg = Number(read(winterWeightKey(organizationId)));
  return Number.isFinite(kg) && kg > 0 ? kg : undefined;
}

export function writeWinterWeight(organizationId: string, kg: number | undefined): void {
  const key = winterWeightKey(organizationId);
  const value = kg !== undefined && kg > 0 ? String(kg) : undefined;
  if (value === undefined) fallback.delete(key);
  else fallback.set(key, value);
  try {
    if (value === undefined) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Storage unavailable: the in-memory fallback holds it.
  }
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener("storage", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", listener);
  };
}

/** The winter weight threshold of this organization on this device (undefined: unset). */
export function useWinterWeight(organizationId: string): number | undefined {
  return useSyncExternalStore(subscribe, () => readWinterWeight(organizationId));
}
