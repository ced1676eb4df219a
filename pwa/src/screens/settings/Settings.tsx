/**
 * Settings: the account (who, which organization, role; log out), switching between the
 * organizations of the account, the language, the winter weight alert, and this device's storage. API keys and members
 * have their own screens. In single-user mode only what applies there shows.
 */
import "./settings.css";
import { Link } from "wouter";
import { useAppSession } from "../../app/client.tsx";
import { paths } from "../../app/paths.ts";
import { useMessages } from "../../i18n.ts";
import { Card, Page } from "../../ui/page.tsx";
import { printMessages } from "../print/messages.ts";
import { RecordsLink } from "../records-io/RecordsLink.tsx";
import { Device } from "./Device.tsx";
import { LanguageChoice } from "./LanguageChoice.tsx";
import { LogOutButton } from "./LogOutButton.tsx";
import { settingsMessages } from "./messages.ts";
import { Organizations } from "./Organizations.tsx";
import { WinterWeight } from "./WinterWeight.tsx";

export default function Settings() {
  const t = useMessages(settingsMessages);
  const tp = useMessages(printMessages);
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
      <RecordsLink />
      <Card>
        <LanguageChoice />
      </Card>
      <WinterWeight />
      <Card title={tp("openRegister")}>
        <ul className="list settings-links">
          <li className="list__item">
            <Link href={paths.register} className="list__link">
              <span className="list__title">{tp("openRegister")}</span>
              <span className="list__meta">{tp("openRegisterHint")}</span>
            </Link>
          </li>
        </ul>
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
