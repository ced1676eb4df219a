/**
 * How many changes this device still has to push, for the parts of the app that live outside
 * the replica's session (the update prompt). The open replica reports it; 0 when none is open.
 */
let pending = 0;
const listeners = new Set<() => void>();

export function setPendingChanges(n: number): void {
  if (n === pending) return;
  pending = n;
  for (const l of listeners) l();
}

export function pendingChanges(): number {
  return pending;
}

export function subscribePendingChanges(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
