import { useEffect, useState } from "react";
import { authClient } from "../../api.ts";
import { useAppSession, useSyncStatus } from "../../app/client.tsx";
import { useOnline } from "../../app/useOnline.ts";
import { refreshIdentity, useIdentity } from "../../hooks/useSession.ts";
import { useMessages } from "../../i18n.ts";
import { type OrganizationRef, setSessionToken } from "../../session.ts";
import { Card, ErrorText } from "../../ui/page.tsx";
import { authFailure } from "../account/errors.ts";
import { useAuthError } from "../account/useAuthError.ts";
import { settingsMessages } from "./messages.ts";
import { NeedsNetwork } from "./parts.tsx";

/** The account's other organizations (WhoAmI), and switching to one (a new session). */
export function Organizations() {
  const t = useMessages(settingsMessages);
  const describe = useAuthError();
  const session = useAppSession();
  const identity = useIdentity();
  const online = useOnline();
  const { pending } = useSyncStatus();
  const [busy, setBusy] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();

  // The list may have changed since sign-in (joined or removed elsewhere).
  useEffect(() => {
    if (online) void refreshIdentity().catch(() => {});
  }, [online]);

  const organizations = identity?.organizations ?? [];
  if (organizations.length < 2) return null;
  const isCurrent = (o: OrganizationRef) =>
    identity?.organizationId ? o.id === identity.organizationId : o.name === session.organization;

  async function switchTo(o: OrganizationRef) {
    setBusy(o.id);
    setError(undefined);
    try {
      const res = await authClient.switchOrganization({ organizationId: o.id });
      // The app closes this organization's replica and opens the other one's.
      setSessionToken(res.sessionToken);
    } catch (err) {
      setError(describe(err));
      setBusy(undefined);
      if (authFailure(err, navigator.onLine).key === "notFound") {
        void refreshIdentity().catch(() => {});
      }
    }
  }

  return (
    <Card title={t("organizations")}>
      <p className="muted">{t("organizationsText")}</p>
      <ul className="list">
        {organizations.map((o) => (
          <li key={o.id} className="list__item list__row org">
            <span className="list__title org__name">{o.name}</span>
            {isCurrent(o) ? (
              <span className="badge badge--ok">{t("current")}</span>
            ) : (
              <button
                type="button"
                className="button button--secondary"
                disabled={!online || busy !== undefined}
                onClick={() => void switchTo(o)}
              >
                {busy === o.id ? t("switching") : t("switchTo", { name: o.name })}
              </button>
            )}
          </li>
        ))}
      </ul>
      {pending > 0 && (
        <p className="notice notice--info">
          {t("switchPending", { count: pending, organization: session.organization })}
        </p>
      )}
      {!online && <NeedsNetwork />}
      <ErrorText text={error} />
    </Card>
  );
}
