/**
 * A setting kept on this device (localStorage), read by React screens and plain code alike, with
 * every screen using it re-rendered when it changes (here or in another tab). When localStorage
 * cannot be used (some private modes), the value lives as long as the page.
 */
import { useSyncExternalStore } from "react";

const listeners = new Set<() => void>();
const fallback = new Map<string, string>();

export function readSetting(key: string): string | undefined {
  try {
    return window.localStorage.getItem(key) ?? fallback.get(key);
  } catch {
    return fallback.get(key);
  }
}

/** Stores `value` under `key`; undefined removes it. */
export function writeSetting(key: string, value: string | undefined): void {
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

/** `read()` of a setting, again whenever a setting changes. */
export function useSetting<T>(read: () => T): T {
  return useSyncExternalStore(subscribe, read);
}
