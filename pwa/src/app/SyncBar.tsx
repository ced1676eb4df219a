/**
 * Sync state, always visible: online or offline, changes waiting, last synced, and the items
 * that need attention (a link to their list). Offline is a band of its own colour that says the
 * work is kept on the device (in sunlight a dot and one word go unseen); back online, it says so
 * for a few seconds, with what it is sending.
 */
import { useEffect, useRef, useState } from "react";
import { Link } from "wouter";
import { useFormat } from "../format.ts";
import { useMessages } from "../i18n.ts";
import { useClient, useSyncStatus } from "./client.tsx";
import { useNotices } from "./notices.ts";
import { paths } from "./paths.ts";
import { setPendingChanges } from "./pending.ts";
import { shellMessages } from "./shell-messages.ts";
import { useOnline } from "./useOnline.ts";

/** Re-renders every `ms` (for "synced 3 minutes ago"). */
function useTick(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(id);
  }, [ms]);
  return now;
}

function relativeTime(locale: string, then: Date, now: number): string {
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: "auto", style: "short" });
  const s = Math.round((then.getTime() - now) / 1000);
  if (Math.abs(s) < 60) return rtf.format(0, "second");
  const m = Math.round(s / 60);
  if (Math.abs(m) < 60) return rtf.format(m, "minute");
  const h = Math.round(m / 60);
  if (Math.abs(h) < 24) return rtf.format(h, "hour");
  return rtf.format(Math.round(h / 24), "day");
}

/** How long "Back online" shows after being offline. */
const backOnlineMs = 5_000;

/** True for `ms` after `online` turns true again (never at the start). */
function useBackOnline(online: boolean, ms: number): boolean {
  const [back, setBack] = useState(false);
  const was = useRef(online);
  useEffect(() => {
    const returned = online && !was.current;
    was.current = online;
    if (!online) setBack(false);
    if (!returned) return;
    setBack(true);
    const id = setTimeout(() => setBack(false), ms);
    return () => clearTimeout(id);
  }, [online, ms]);
  return back;
}

export function SyncBar() {
  const t = useMessages(shellMessages);
  const status = useSyncStatus();
  const client = useClient();
  const fmt = useFormat();
  const now = useTick(30_000);
  const browserOnline = useOnline();
  const online = browserOnline && status.online;
  const back = useBackOnline(online, backOnlineMs);
  // A first sync (or a long time away) shows how far it has come; the screens fill meanwhile.
  const pullingText = ({ changes, left }: { changes: number; left: number | undefined }) =>
    left === undefined
      ? t("pulling", { done: fmt.number(changes, 0) })
      : t("pullingLeft", { done: fmt.number(changes, 0), left: fmt.number(left, 0) });
  // Refused changes and notices of work sync overrode (issue 25) both wait on /sync.
  const attention = status.quarantined.length + useNotices().length;
  useEffect(() => {
    setPendingChanges(status.pending);
    return () => setPendingChanges(0);
  }, [status.pending]);
  return (
    <div
      className={`syncbar ${online ? "syncbar--online" : "syncbar--offline"}${back ? " syncbar--back" : ""}`}
      role="status"
      aria-live="polite"
    >
      <span className="syncbar__state">
        <span className="syncbar__dot" aria-hidden="true" />
        {!online ? (
          t("offlineSaved")
        ) : back ? (
          status.pending > 0 ? (
            t("backSending", { count: status.pending })
          ) : (
            t("backSynced")
          )
        ) : status.pulling ? (
          pullingText(status.pulling)
        ) : (
          // The everyday word ("Online", "Syncing…"): on a phone the dot says it and the word is
          // for screen readers only, so the header stays one line beside "Synced now".
          <span className="syncbar__word">{status.syncing ? t("syncing") : t("online")}</span>
        )}
      </span>
      {/* What waits, when anything does (offline too: the work kept on the device). */}
      {!back && status.pending > 0 && (
        <span className="syncbar__pending">{t("pending", { count: status.pending })}</span>
      )}
      {/* Always there (when it last synced). Nothing waiting: one short "Synced now", so the
          header stays one line on a phone. Beside what waits or a pull's progress, "Synced"
          would read as done: "Last synced:". */}
      <span className="syncbar__last">
        {!status.lastSyncedAt
          ? t("neverSynced")
          : t(status.pending === 0 && !status.pulling ? "synced" : "lastSynced", {
              when: relativeTime(fmt.locale, status.lastSyncedAt, now),
            })}
      </span>
      {attention > 0 && (
        <Link href={paths.attention} className="syncbar__attention">
          <span className="syncbar__pill">{t("attention", { count: attention })}</span>
        </Link>
      )}
      {online && status.pending > 0 && !status.syncing && (
        <button
          type="button"
          className="syncbar__now"
          onClick={() => void client.sync.syncNow().catch(() => {})}
        >
          {t("syncNow")}
        </button>
      )}
    </div>
  );
}
