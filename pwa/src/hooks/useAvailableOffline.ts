import { useEffect, useState } from "react";

/**
 * True once a service worker is active for this page, i.e. the app shell is
 * precached and the app opens without a connection. Stays false in `vite dev`.
 */
export function useAvailableOffline(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let live = true;
    void navigator.serviceWorker?.ready.then(() => {
      if (live) setReady(true);
    });
    return () => {
      live = false;
    };
  }, []);
  return ready;
}
