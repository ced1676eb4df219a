/**
 * Log out (or leave the demo). With changes still waiting to sync, it asks first: they stay on
 * this device, in this account's replica, and sync when the same account logs in here again.
 */
import { useState } from "react";
import { useAppSession, useSyncStatus } from "../../app/client.tsx";
import { useMessages } from "../../i18n.ts";
import { settingsMessages } from "./messages.ts";

export function LogOutButton() {
  const t = useMessages(settingsMessages);
  const session = useAppSession();
  const { pending } = useSyncStatus();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);

  const logOut = () => {
    setBusy(true);
    void session.signOut();
  };
  const label = session.readOnly ? t("leaveDemo") : t("logOut");

  if (asking && pending > 0) {
    return (
      <div className="notice notice--warn logout__ask" role="alert">
        <p className="notice__text">
          {t("logOutPending", { count: pending, email: session.email })}
        </p>
        <div className="notice__actions">
          <button type="button" className="button button--danger" disabled={busy} onClick={logOut}>
            {busy ? t("loggingOut") : t("logOutAnyway")}
          </button>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => setAsking(false)}
          >
            {t("cancel")}
          </button>
        </div>
      </div>
    );
  }
  return (
    <button
      type="button"
      className="button button--secondary"
      disabled={busy}
      onClick={() => (pending > 0 && !session.readOnly ? setAsking(true) : logOut())}
    >
      {busy ? t("loggingOut") : label}
    </button>
  );
}
