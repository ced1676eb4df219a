/**
 * Registers the service worker (which precaches the app shell, so a cold start works with no
 * network) and offers a new version when one is waiting. Nothing reloads on its own, and no page
 * reloads while changes are waiting to sync: an update asked for then (here, or in another tab
 * whose update takes over this one) happens once the outbox is empty.
 */

import { useRegisterSW } from "virtual:pwa-register/react";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { useMessages } from "../i18n.ts";
import { pendingChanges, subscribePendingChanges } from "./pending.ts";
import { shellMessages } from "./shell-messages.ts";

export function UpdatePrompt() {
  const t = useMessages(shellMessages);
  const pending = useSyncExternalStore(subscribePendingChanges, pendingChanges, () => 0);
  const [reloadWhenSynced, setReloadWhenSynced] = useState(false);
  const pendingRef = useRef(pending);
  pendingRef.current = pending;
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    // The new version took over (asked for here or in another tab): reload now only if
    // nothing is waiting to sync.
    onNeedReload() {
      if (pendingRef.current === 0) window.location.reload();
      else setReloadWhenSynced(true);
    },
  });

  useEffect(() => {
    if (reloadWhenSynced && pending === 0) window.location.reload();
  }, [reloadWhenSynced, pending]);

  if (reloadWhenSynced) {
    return (
      <div className="notice notice--info" role="status">
        <p className="notice__text">{t("updateAfterSync", { count: pending })}</p>
      </div>
    );
  }
  if (!needRefresh) return null;
  return (
    <div className="notice" role="status">
      <p className="notice__text">
        {pending > 0 ? t("updateWaiting", { count: pending }) : t("updateAvailable")}
      </p>
      <div className="notice__actions">
        <button
          type="button"
          className="button"
          onClick={() => {
            // Activates the new service worker; onNeedReload decides when to reload.
            void updateServiceWorker(false);
          }}
        >
          {t("update")}
        </button>
        <button
          type="button"
          className="button button--secondary"
          onClick={() => setNeedRefresh(false)}
        >
          {t("notNow")}
        </button>
      </div>
    </div>
  );
}
