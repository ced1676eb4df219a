/**
 * Signed out in hosted mode: log in, create an account (a new organization), try the read-only
 * demo, or accept an invitation from its link (`/join#<token>`: the token rides in the fragment,
 * so it never reaches a server log). Signing in needs the network; the rest of the app does not.
 */
import "./sign-in.css";
import { Code, ConnectError } from "@connectrpc/connect";
import { type FormEvent, type KeyboardEvent, useId, useRef, useState } from "react";
import { useLocation } from "wouter";
import { authClient } from "../../api.ts";
import { useOnline } from "../../app/useOnline.ts";
import { useMessages } from "../../i18n.ts";
import { lastEmail, sessionEndedHere } from "../../session.ts";
import { TextField } from "../../ui/forms.tsx";
import { ErrorText } from "../../ui/page.tsx";
import { LanguageChoice } from "../settings/LanguageChoice.tsx";
import { invitationFromLocation } from "./errors.ts";
import { accountMessages } from "./messages.ts";
import { useAuthCall, useAuthError } from "./useAuthError.ts";

type Mode = "login" | "signup";

const minPassword = 8;

export default function SignedOut(props: { onSignedIn: (token: string) => void }) {
  const t = useMessages(accountMessages);
  const [, navigate] = useLocation();
  // Read once: the token leaves the address bar as soon as it is used.
  const [invitation] = useState(() => invitationFromLocation(window.location));
  const [email] = useState(lastEmail);
  const [ended] = useState(sessionEndedHere);

  const signedIn = (token: string) => {
    // An invitation is used once: the app opens at the overview, not on its link.
    if (invitation !== undefined) navigate("/", { replace: true });
    props.onSignedIn(token);
  };

  return (
    <main className="content sign-in">
      <div className="sign-in__intro">
        <h1 className="sign-in__title">
          <img className="sign-in__logo" src="/icon.svg" alt="" width="40" height="40" />
          {t("welcome")}
        </h1>
        <p className="muted">{t("tagline")}</p>
      </div>
      {invitation !== undefined && (
        <section className="notice notice--info sign-in__invited" aria-labelledby="invited-title">
          <h2 id="invited-title" className="card__title">
            {t("invitedTitle")}
          </h2>
          <p>{t("invitedText")}</p>
        </section>
      )}
      <AccountForm
        invitation={invitation}
        initialEmail={invitation === undefined ? email : ""}
        ended={ended}
        onSignedIn={signedIn}
      />
      {invitation === undefined && <Demo onSignedIn={signedIn} />}
      <section className="card sign-in__language">
        <LanguageChoice />
      </section>
    </main>
  );
}

function AccountForm(props: {
  invitation: string | undefined;
  initialEmail: string;
  /** The last session ended (expired, revoked) rather than logged out. */
  ended: boolean;
  onSignedIn: (token: string) => void;
}) {
  const t = useMessages(accountMessages);
  const online = useOnline();
  const id = useId();
  const invited = props.invitation !== undefined;
  // An invited person most likely has no account yet.
  const [mode, setMode] = useState<Mode>(invited ? "signup" : "login");
  const [email, setEmail] = useState(props.initialEmail);
  const [password, setPassword] = useState("");
  const [organization, setOrganization] = useState("");
  const call = useAuthCall(
    async (request: { email: string; password: string; organizationName: string }) => {
      const invitationToken = props.invitation ?? "";
      const res = signup
        ? await authClient.signUp({ ...request, invitationToken })
        : await authClient.login({
            email: request.email,
            password: request.password,
            invitationToken,
          });
      props.onSignedIn(res.sessionToken);
    },
    // Signed in: the app opens the account's replica and this screen goes.
    { untilGone: true },
  );
  const { busy, error, setError } = call;
  const tabs = useRef<Record<Mode, HTMLButtonElement | null>>({ login: null, signup: null });
  const signup = mode === "signup";

  function switchTo(next: Mode) {
    setMode(next);
    setError(undefined);
  }

  function onTabKey(event: KeyboardEvent<HTMLDivElement>) {
    if (!["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
    event.preventDefault();
    const next: Mode =
      event.key === "Home" ? "login" : event.key === "End" ? "signup" : signup ? "login" : "signup";
    switchTo(next);
    tabs.current[next]?.focus();
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const address = email.trim();
    const orgName = organization.trim();
    const problem =
      address === ""
        ? t("needEmail")
        : password === ""
          ? t("needPassword")
          : signup && password.length < minPassword
            ? t("passwordShort", { min: minPassword })
            : signup && !invited && orgName === ""
              ? t("needOrganization")
              : undefined;
    if (problem) setError(problem);
    else void call.run({ email: address, password, organizationName: invited ? "" : orgName });
  }

  const tab = (value: Mode, label: string) => (
    <button
      ref={(el) => {
        tabs.current[value] = el;
      }}
      type="button"
      role="tab"
      id={`${id}-tab-${value}`}
      className="tabs__tab"
      aria-selected={mode === value}
      aria-controls={`${id}-panel`}
      tabIndex={mode === value ? 0 : -1}
      onClick={() => switchTo(value)}
    >
      {label}
    </button>
  );

  const submitLabel = signup
    ? busy
      ? t("signingUp")
      : invited
        ? t("signupJoin")
        : t("signup")
    : busy
      ? t("loggingIn")
      : invited
        ? t("loginJoin")
        : t("login");

  return (
    <section className="card" aria-label={t("signInRegion")}>
      <div className="tabs" role="tablist" aria-label={t("modes")} onKeyDown={onTabKey}>
        {tab("login", t("tabLogin"))}
        {tab("signup", t("tabSignup"))}
      </div>
      {/* The panel of the tabs holds the form (a form may not be a tabpanel itself). */}
      <div id={`${id}-panel`} role="tabpanel" aria-labelledby={`${id}-tab-${mode}`}>
        <form className="form" onSubmit={submit} noValidate>
          {!signup && !invited && props.ended && props.initialEmail !== "" && (
            <p className="muted">{t("sessionEndedNote", { email: props.initialEmail })}</p>
          )}
          <TextField
            label={t("email")}
            type="email"
            value={email}
            onChange={setEmail}
            autoComplete={signup ? "email" : "username"}
            maxLength={254}
            required
          />
          <TextField
            label={t("password")}
            type="password"
            value={password}
            onChange={setPassword}
            autoComplete={signup ? "new-password" : "current-password"}
            maxLength={1024}
            hint={signup ? t("passwordHint", { min: minPassword }) : undefined}
            required
          />
          {signup && !invited && (
            <TextField
              label={t("organization")}
              value={organization}
              onChange={setOrganization}
              autoComplete="organization"
              maxLength={200}
              hint={t("organizationHint")}
              required
            />
          )}
          {signup && invited && <p className="muted">{t("invitedSignupNote")}</p>}
          {!online && <p className="notice notice--warn">{t("offlineSignIn")}</p>}
          <ErrorText text={error} />
          <button type="submit" className="button button--primary" disabled={busy}>
            {submitLabel}
          </button>
        </form>
      </div>
    </section>
  );
}

function Demo(props: { onSignedIn: (token: string) => void }) {
  const t = useMessages(accountMessages);
  const describe = useAuthError();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [unavailable, setUnavailable] = useState<string | undefined>();

  async function start() {
    setBusy(true);
    setError(undefined);
    try {
      const res = await authClient.startDemo({});
      props.onSignedIn(res.sessionToken);
    } catch (err) {
      if (ConnectError.from(err).code === Code.FailedPrecondition && navigator.onLine) {
        setUnavailable(describe(err));
      } else {
        setError(describe(err));
      }
      setBusy(false);
    }
  }

  return (
    <section className="card" aria-labelledby="demo-title">
      <h2 id="demo-title" className="card__title">
        {t("demoTitle")}
      </h2>
      {unavailable !== undefined ? (
        <p className="muted">{unavailable}</p>
      ) : (
        <>
          <p className="muted">{t("demoText")}</p>
          <ErrorText text={error} />
          <button
            type="button"
            className="button button--secondary"
            disabled={busy}
            onClick={() => void start()}
          >
            {busy ? t("startingDemo") : t("demo")}
          </button>
          <p className="sign-in__note" role="status">
            {busy ? t("demoPreparing") : ""}
          </p>
        </>
      )}
    </section>
  );
}
