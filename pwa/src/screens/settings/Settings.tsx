/**
 * Settings: the account (who, which organization, role; log out), switching between the
 * organizations of the account, the language, and this device's storage. API keys and members
 * have their own screens. In single-user mode only what applies there shows.
 */
import "./settings.css";
import { useEffect, useState } from "react";
import { Link } from "wouter";
import { authClient } from "../../api.ts";
import { useAppSession, useSyncStatus } from "../../app/client.tsx";
import { paths } from "../../app/routes.tsx";
import { useOnline } from "../../app/useOnline.ts";
import { useFormat } from "../../format.ts";
import { refreshIdentity, useIdentity } from "../../hooks/useSession.ts";
import { useMessages } from "../../i18n.ts";
import { type OrganizationRef, setSessionToken } from "../../session.ts";
import { Card, ErrorText, Page } from "../../ui/page.tsx";
import { authFailure } from "../account/errors.ts";
import { useAuthError } from "../account/useAuthError.ts";
import { LanguageChoice } from "./LanguageChoice.tsx";
import { LogOutButton } from "./LogOutButton.tsx";
import { settingsMessages } from "./messages.ts";
import { NeedsNetwork } from "./parts.tsx";
import { formatBytes, readStorage, type StorageInfo } from "./storage.ts";

export default function Settings() {
  const t = useMessages(settingsMessages);
  const session = useAppSession();
  return (
    <Page title={t("title")}>
      {session.loginMode ? (
        <>
          <Account />
          {!session.readOnly && <Organizations />}
        </>
      ) : (
        <Card>
          <p>{t("singleUser")}</p>
        </Card>
      )}
      <Card>
        <LanguageChoice />
      </Card>
      <Device />
    </Page>
  );
}

function Account() {
  const t = useMessages(settingsMessages);
  const session = useAppSession();
  const role = session.readOnly ? t("roleDemo") : session.owner ? t("roleOwner") : t("roleMember");
  return (
    <Card title={t("account")}>
      <dl className="account-facts">
        <div className="account-facts__row">
          <dt>{t("email")}</dt>
          <dd>{session.email}</dd>
        </div>
        <div className="account-facts__row">
          <dt>{t("organization")}</dt>
          <dd>{session.organization}</dd>
        </div>
        <div className="account-facts__row">
          <dt>{t("role")}</dt>
          <dd>{role}</dd>
        </div>
      </dl>
      {!session.readOnly && (
        <ul className="list settings-links">
          <li className="list__item">
            <Link href={paths.apiKeys} className="list__link">
              <span className="list__title">{t("apiKeys")}</span>
              <span className="list__meta">{t("apiKeysText")}</span>
            </Link>
          </li>
          {session.owner && (
            <li className="list__item">
              <Link href={paths.members} className="list__link">
                <span className="list__title">{t("members")}</span>
                <span className="list__meta">{t("membersText")}</span>
              </Link>
            </li>
          )}
        </ul>
      )}
      <div className="form__actions">
        <LogOutButton />
      </div>
    </Card>
  );
}

/** The account's other organizations (WhoAmI), and switching to one (a new session). */
function Organizations() {
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

/** What this device holds: storage used, whether the browser may clear it, changes waiting. */
function Device() {
  const t = useMessages(settingsMessages);
  const fmt = useFormat();
  const { pending } = useSyncStatus();
  const [info, setInfo] = useState<StorageInfo | undefined>();
  const [denied, setDenied] = useState(false);
  const [reads, setReads] = useState(0);
  const storage = typeof navigator === "undefined" ? undefined : navigator.storage;

  // biome-ignore lint/correctness/useExhaustiveDependencies: reads asks again after persist().
  useEffect(() => {
    let live = true;
    void readStorage(storage).then((i) => {
      if (live) setInfo(i);
    });
    return () => {
      live = false;
    };
  }, [storage, reads]);

  async function persist() {
    const granted = await storage?.persist?.().catch(() => false);
    setDenied(granted !== true);
    setReads((n) => n + 1);
  }

  return (
    <Card title={t("device")}>
      <p>
        {info?.usage !== undefined && info.quota !== undefined
          ? t("storageUsed", {
              used: formatBytes(fmt.locale, info.usage),
              quota: formatBytes(fmt.locale, info.quota),
            })
          : info !== undefined
            ? t("storageUnknown")
            : ""}
      </p>
      {info?.persisted === true && <p>{t("persisted")}</p>}
      {info?.persisted === false && (
        <>
          <p className="muted">{t("notPersisted")}</p>
          {storage?.persist && (
            <div className="form__actions">
              <button
                type="button"
                className="button button--secondary"
                onClick={() => void persist()}
              >
                {t("persist")}
              </button>
            </div>
          )}
          {denied && (
            <p className="notice notice--info" role="status">
              {t("persistDenied")}
            </p>
          )}
        </>
      )}
      <p className="muted">{pending > 0 ? t("pending", { count: pending }) : t("allSynced")}</p>
    </Card>
  );
}
