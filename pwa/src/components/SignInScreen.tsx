import { Code, ConnectError } from "@connectrpc/connect";
import { type FormEvent, type KeyboardEvent, useId, useRef, useState } from "react";
import { authClient } from "../api.ts";
import { ErrorMessage } from "./ErrorMessage.tsx";

export interface SignInScreenProps {
  /** Called with the token of the new session; the screen stays busy until it goes away. */
  readonly onSignedIn: (token: string) => void;
}

type Mode = "login" | "signup";

const minPassword = 8;

/** The server's message as a sentence: "email or password is wrong" → "Email or password is wrong." */
function sentence(message: string): string {
  const text = message.trim();
  if (text === "") return "Something went wrong. Try again.";
  const capital = text[0]?.toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** What to tell the user about a failed sign-in call. */
function describeAuthError(err: unknown): string {
  if (!navigator.onLine) return "You are offline. Connect to the internet to sign in.";
  const e = ConnectError.from(err);
  if (e.code === Code.Unknown || e.code === Code.Unavailable) {
    return "The server cannot be reached. Try again in a moment.";
  }
  return sentence(e.rawMessage);
}

/**
 * Hosted mode without a session: log in, sign up (creates an organization),
 * or look around the read-only demo.
 */
export function SignInScreen({ onSignedIn }: SignInScreenProps) {
  const id = useId();
  const [mode, setMode] = useState<Mode>("login");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [organization, setOrganization] = useState("");
  const [busy, setBusy] = useState<"form" | "demo" | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [demoError, setDemoError] = useState<string | undefined>();
  const [demoUnavailable, setDemoUnavailable] = useState<string | undefined>();
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

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmedEmail = email.trim();
    const orgName = organization.trim();
    if (trimmedEmail === "" || password === "") {
      setError("Enter your email and password.");
      return;
    }
    if (signup && password.length < minPassword) {
      setError(`Choose a password of at least ${minPassword} characters.`);
      return;
    }
    if (signup && orgName === "") {
      setError("Give your organization a name.");
      return;
    }
    setBusy("form");
    setError(undefined);
    try {
      const res = signup
        ? await authClient.signUp({
            email: trimmedEmail,
            password,
            organizationName: orgName,
          })
        : await authClient.login({ email: trimmedEmail, password });
      onSignedIn(res.sessionToken);
    } catch (err) {
      setError(describeAuthError(err));
      setBusy(undefined);
    }
  }

  async function startDemo() {
    setBusy("demo");
    setDemoError(undefined);
    try {
      const res = await authClient.startDemo({});
      onSignedIn(res.sessionToken);
    } catch (err) {
      if (ConnectError.from(err).code === Code.FailedPrecondition) {
        setDemoUnavailable("The demo is not available on this server.");
      } else {
        setDemoError(describeAuthError(err));
      }
      setBusy(undefined);
    }
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

  return (
    <div className="sign-in">
      <div className="sign-in__intro">
        <h2 className="sign-in__title">Welcome to Hivekeep</h2>
        <p className="muted">Keep track of your apiaries and hives, with or without signal.</p>
      </div>

      <section className="card" aria-label="Sign in">
        <div className="tabs" role="tablist" aria-label="Log in or sign up" onKeyDown={onTabKey}>
          {tab("login", "Log in")}
          {tab("signup", "Sign up")}
        </div>
        <form
          id={`${id}-panel`}
          className="form"
          role="tabpanel"
          aria-labelledby={`${id}-tab-${mode}`}
          onSubmit={submit}
          noValidate
        >
          <div className="field">
            <label htmlFor={`${id}-email`}>Email</label>
            <input
              id={`${id}-email`}
              name="email"
              type="email"
              inputMode="email"
              autoComplete={signup ? "email" : "username"}
              autoCapitalize="none"
              spellCheck={false}
              required
              maxLength={254}
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-password`}>Password</label>
            <input
              id={`${id}-password`}
              name="password"
              type="password"
              autoComplete={signup ? "new-password" : "current-password"}
              required
              minLength={signup ? minPassword : undefined}
              maxLength={1024}
              aria-describedby={signup ? `${id}-password-hint` : undefined}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            {signup && (
              <p id={`${id}-password-hint`} className="field__hint">
                At least {minPassword} characters.
              </p>
            )}
          </div>
          {signup && (
            <div className="field">
              <label htmlFor={`${id}-organization`}>Organization name</label>
              <input
                id={`${id}-organization`}
                name="organization"
                autoComplete="organization"
                required
                maxLength={200}
                aria-describedby={`${id}-organization-hint`}
                value={organization}
                onChange={(e) => setOrganization(e.target.value)}
              />
              <p id={`${id}-organization-hint`} className="field__hint">
                Your beekeeping, club or family — you can invite others later.
              </p>
            </div>
          )}
          {error && <ErrorMessage message={error} />}
          <button type="submit" className="button" disabled={busy !== undefined}>
            {signup
              ? busy === "form"
                ? "Creating account…"
                : "Create account"
              : busy === "form"
                ? "Logging in…"
                : "Log in"}
          </button>
        </form>
      </section>

      <section className="card" aria-labelledby={`${id}-demo-heading`}>
        <h2 id={`${id}-demo-heading`} className="card__title">
          Just looking?
        </h2>
        {demoUnavailable ? (
          <p className="muted">{demoUnavailable}</p>
        ) : (
          <>
            <p className="muted">
              Explore a season of sample apiaries and hives. Read only, no account needed.
            </p>
            {demoError && <ErrorMessage message={demoError} />}
            <button
              type="button"
              className="button button--secondary"
              disabled={busy !== undefined}
              onClick={() => void startDemo()}
            >
              {busy === "demo" ? "Starting the demo…" : "Try the demo"}
            </button>
            <p className="sign-in__note" role="status">
              {busy === "demo"
                ? "Preparing the sample data; the first time takes a few seconds."
                : ""}
            </p>
          </>
        )}
      </section>
    </div>
  );
}
