/**
 * One sync leader per replica across tabs: the tab holding the Web Lock `name` runs the
 * background sync; when it closes (or stops), the lock and the lead pass to a waiting tab.
 * Without Web Locks (Node, tests) a client leads itself.
 */

/**
 * Runs `lead` once this client holds the lock (at once without `locks`). The function returned
 * gives the lead up, or stops waiting for it; `lead` never runs after it.
 */
export function seekLeadership(
  locks: LockManager | undefined,
  name: string,
  lead: () => void,
): () => void {
  if (locks === undefined) {
    lead();
    return () => {};
  }
  const waiting = new AbortController();
  let resigned = false;
  let release: (() => void) | undefined;
  locks
    .request(
      name,
      { signal: waiting.signal },
      () =>
        // Held until released: the lock is this tab's as long as the promise is pending.
        new Promise<void>((resolve) => {
          release = resolve;
          if (resigned) resolve();
          else lead();
        }),
    )
    .catch(() => {});
  return () => {
    resigned = true;
    waiting.abort();
    release?.();
  };
}
