/**
 * An invitation link (`/join#<token>`) opened while signed in: join the inviting organization
 * with this account (its password, as Login asks), or log out and use another account (the
 * sign-in screen then offers the same invitation).
 */
import { type FormEvent, useState } from "react";
import { Link, useLocation } from "wouter";
import { authClient } from "../../api.ts";
import { useAppSession, useSyncStatus } from "../../app/client.tsx";
import { paths } from "../../app/paths.ts";
import { useOnline } from "../../app/useOnline.ts";
import { useMessages } from "../../i18n.ts";
import { setSessionToken } from "../../session.ts";
import { TextField } from "../../ui/forms.tsx";
import { Card, ErrorText, Page } from "../../ui/page.tsx";
import { LogOutButton } from "../settings/LogOutButton.tsx";
import { invitationFromLocation } from "./errors.ts";
import { accountMessages } from "./messages.ts";
import { useAuthCall } from "./useAuthError.ts";

export default function Join() {
  const t = useMessages(accountMessages);
  const session = useAppSession();
  const [invitation] = useState(() => invitationFromLocation(window.location));

  if (invitation === undefined || !session.loginMode) {
    return (
      <Page title={t("joinTitle")}>
        <Card>
          <p>{session.loginMode ? t("joinMissing") : t("joinSingleUser")}</p>
          <div className="form__actions">
            <Link href={paths.dashboard} className="button button--secondary">
              {t("toOverview")}
            </Link>
          </div>
        </Card>
      </Page>
    );
  }
  if (session.readOnly) {
    return (
      <Page title={t("joinTitle")}>
        <Card>
          <p>{t("joinDemo")}</p>
          <div className="form__actions">
            <LogOutButton />
          </div>
        </Card>
      </Page>
    );
  }
  return (
    <Page title={t("joinTitle")}>
      <Card>
        <p>{t("joinText", { email: session.email, organization: session.organization })}</p>
      </Card>
      <JoinWithThisAccount invitation={invitation} />
      <Card>
        <p>{t("joinOther")}</p>
        <div className="form__actions">
          <LogOutButton />
        </div>
      </Card>
    </Page>
  );
}

function JoinWithThisAccount(props: { invitation: string }) {
  const t = useMessages(accountMessages);
  const session = useAppSession();
  const { pending } = useSyncStatus();
  const online = useOnline();
  const [, navigate] = useLocation();
  const [password, setPassword] = useState("");
  const call = useAuthCall(
    async () => {
      const res = await authClient.login({
        email: session.email,
        password,
        invitationToken: props.invitation,
      });
      // The link is used: leave it, then open the organization joined.
      navigate(paths.dashboard, { replace: true });
      setSessionToken(res.sessionToken);
    },
    { untilGone: true },
  );
  const { busy, error } = call;

  function join(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (password === "") call.setError(t("needPassword"));
    else void call.run();
  }

  return (
    <Card>
      <form className="form" onSubmit={join} noValidate>
        <p>{t("joinHow", { email: session.email })}</p>
        {/* For password managers: whose password this is. */}
        <input type="email" autoComplete="username" value={session.email} readOnly hidden />
        <TextField
          label={t("password")}
          type="password"
          value={password}
          onChange={setPassword}
          autoComplete="current-password"
          maxLength={1024}
          required
        />
        {pending > 0 && (
          <p className="notice notice--info">
            {t("joinPending", { count: pending, organization: session.organization })}
          </p>
        )}
        {!online && <p className="notice notice--warn">{t("offlineSignIn")}</p>}
        <ErrorText text={error} />
        <div className="form__actions">
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? t("joining") : t("joinButton")}
          </button>
        </div>
      </form>
    </Card>
  );
}
