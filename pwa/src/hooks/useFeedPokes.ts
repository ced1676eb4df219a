import { useEffect, useRef } from "react";
import { syncClient } from "../api.ts";

/**
 * Calls onPoke whenever the server's change feed advances (SyncService.Subscribe
 * over connect-web), so a dashboard open at home shows what a phone synced.
 * The stream reconnects with backoff (1 s doubling to 30 s, with jitter) after
 * it ends or fails, e.g. while offline.
 */
export function useFeedPokes(onPoke: () => void): void {
  const callback = useRef(onPoke);
  callback.current = onPoke;

  useEffect(() => {
    const stop = new AbortController();
    let cursor = "";
    let delay = 1_000;
    void (async () => {
      while (!stop.signal.aborted) {
        try {
          for await (const msg of syncClient.subscribe({ cursor }, { signal: stop.signal })) {
            delay = 1_000;
            if (msg.heartbeat) continue;
            const first = cursor === "";
            cursor = msg.cursor;
            // The first message only says where the feed stands.
            if (!first) callback.current();
          }
        } catch {
          // Ended or failed (offline, server restart): wait, then subscribe again.
        }
        if (stop.signal.aborted) break;
        await new Promise((r) => setTimeout(r, delay * (0.5 + Math.random() / 2)));
        delay = Math.min(delay * 2, 30_000);
      }
    })();
    return () => stop.abort();
  }, []);
}
