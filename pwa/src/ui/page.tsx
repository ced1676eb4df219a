/** The frame of a screen and the small pieces every screen uses. */
import { Code, ConnectError } from "@connectrpc/connect";
import type { MarkingColor } from "@hivekeep/proto";
import { type ReactNode, useEffect, useState } from "react";
import { Link } from "wouter";
import { type Live, useReadOnly } from "../app/client.tsx";
import { useMessages } from "../i18n.ts";
import { commonMessages, markingCss } from "./messages.ts";

/**
 * A screen: its heading (also the document title), an optional way back, actions beside the
 * heading, and the content.
 */
export function Page(props: {
  readonly title: string;
  readonly back?: string;
  readonly actions?: ReactNode;
  readonly children: ReactNode;
}) {
  const t = useMessages(commonMessages);
  useEffect(() => {
    document.title = `${props.title} · Hivekeep`;
  }, [props.title]);
  return (
    <section className="page">
      <header className="page__header">
        {/* The way back stays beside the title; a long title wraps in its own column. */}
        <div className="page__heading">
          {props.back && (
            <Link href={props.back} className="page__back" aria-label={t("back")}>
              ‹
            </Link>
          )}
          <h1 className="page__title">{props.title}</h1>
        </div>
        {props.actions && <div className="page__actions">{props.actions}</div>}
      </header>
      {props.children}
    </section>
  );
}

export function Card(props: {
  readonly title?: string;
  readonly children: ReactNode;
  readonly className?: string;
}) {
  return (
    <section className={`card ${props.className ?? ""}`}>
      {props.title && <h2 className="card__title">{props.title}</h2>}
      {props.children}
    </section>
  );
}

export function Loading() {
  const t = useMessages(commonMessages);
  return (
    <p className="muted" role="status">
      {t("loading")}
    </p>
  );
}

export function Empty(props: { readonly children: ReactNode }) {
  return <p className="empty">{props.children}</p>;
}

/** A record a deep link names that is not (or no longer) on this device. */
export function NotFound(props: { readonly back: string }) {
  const t = useMessages(commonMessages);
  return (
    <Page title={t("notFound")} back={props.back}>
      <p>{t("notFoundText")}</p>
    </Page>
  );
}

/** The replica could not be read (storage failed): said as such, never as "Not found". */
export function ReadFailed(props: { readonly error: unknown; readonly back?: string }) {
  const t = useMessages(commonMessages);
  return (
    <Page title={t("readFailed")} back={props.back}>
      <p className="error" role="alert">
        {t("readFailedText", { message: errorText(props.error) })}
      </p>
    </Page>
  );
}

/**
 * A screen's live data: Loading, Not found (with the way back), Could not read, or the screen
 * drawn from the value.
 *
 *   const hive = useHive(id);
 *   return <LiveView live={hive} back={paths.hives}>{(h) => <HiveView hive={h} />}</LiveView>;
 *
 * A list screen shows its frame (title, "New") while it loads: `loading={<Frame><Loading /></Frame>}`.
 */
export function LiveView<T>(props: {
  readonly live: Live<T>;
  readonly back: string;
  readonly children: (value: T) => ReactNode;
  /** What shows until the first answer (default: Loading). */
  readonly loading?: ReactNode;
}) {
  const { live } = props;
  switch (live.status) {
    case "loading":
      return props.loading ?? <Loading />;
    case "not-found":
      return <NotFound back={props.back} />;
    case "failed":
      return <ReadFailed error={live.error} back={props.back} />;
    case "ready":
      return props.children(live.value);
  }
}

/** What went wrong with a local operation, as the service said it (Connect's message). */
export function errorText(err: unknown): string {
  const e = ConnectError.from(err);
  return e.code === Code.Unknown ? String(e.rawMessage || e.message) : e.rawMessage;
}

export function ErrorNote(props: { readonly error: unknown }) {
  const t = useMessages(commonMessages);
  if (props.error === undefined) return null;
  return <ErrorText text={t("errorGeneric", { message: errorText(props.error) })} />;
}

/** A sentence saying what went wrong, announced; nothing when there is none. */
export function ErrorText(props: { readonly text: string | undefined }) {
  if (!props.text) return null;
  return (
    <p className="error" role="alert">
      {props.text}
    </p>
  );
}

/** Shown instead of write controls in a read-only (demo) session. */
export function ReadOnlyNote() {
  const t = useMessages(commonMessages);
  return <p className="notice notice--info">{t("readOnlyDemo")}</p>;
}

/** A form's page in a read-only session: its title, and why there is no form. */
export function ReadOnlyPage(props: { readonly title: string; readonly back: string }) {
  return (
    <Page title={props.title} back={props.back}>
      <ReadOnlyNote />
    </Page>
  );
}

/** Hides its children in a read-only session. */
export function Writable(props: { readonly children: ReactNode }) {
  return useReadOnly() ? null : props.children;
}

/**
 * Runs a write and keeps its state: `busy` while it runs, `error` if it failed (shown with
 * ErrorNote). The write is local, so it is quick and works offline.
 */
export function useAction<A extends unknown[]>(
  action: (...args: A) => Promise<unknown>,
): { run: (...args: A) => Promise<boolean>; busy: boolean; error: unknown } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  return {
    busy,
    error,
    run: async (...args: A) => {
      setBusy(true);
      setError(undefined);
      try {
        await action(...args);
        return true;
      } catch (err) {
        setError(err);
        return false;
      } finally {
        setBusy(false);
      }
    },
  };
}

/**
 * The colour dot of a queen's marking. Decoration only: the colour's name is always written
 * beside it (never colour alone). `large` in a marking choice and a notice.
 */
export function MarkingDot(props: { readonly marking: MarkingColor; readonly large?: boolean }) {
  return (
    <span
      className={props.large ? "dot dot--large" : "dot"}
      style={{ background: markingCss[props.marking] }}
      aria-hidden="true"
    />
  );
}

/**
 * A delete (or other final) button that asks once more before it acts. On one item of a list
 * (revoke a key, remove a member), `ariaLabel` names the item for screen readers.
 *
 * The question names the action and its consequence (`confirm`: "Delete this harvest: 12.5 kg
 * leave the honey figures") and its buttons name what they do (`confirmLabel` "Delete harvest",
 * `keepLabel` "Keep"): all three are required, so no confirmation answers Yes / No.
 */
export function ConfirmButton(props: {
  readonly label: string;
  readonly ariaLabel?: string;
  readonly confirm: string;
  /** The button that acts, named by its action ("Delete hive"). */
  readonly confirmLabel: string;
  /** The button that keeps things as they are ("Keep"). */
  readonly keepLabel: string;
  readonly onConfirm: () => void;
  readonly disabled?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button
        type="button"
        className="button button--danger"
        aria-label={props.ariaLabel}
        disabled={props.disabled}
        onClick={() => setAsking(true)}
      >
        {props.label}
      </button>
    );
  }
  return (
    <span className="confirm">
      {/* Announced as it appears: the action and its consequence. */}
      <span className="confirm__text" role="alert">
        {props.confirm}
      </span>
      <button
        type="button"
        className="button button--danger"
        onClick={() => {
          setAsking(false);
          props.onConfirm();
        }}
      >
        {props.confirmLabel}
      </button>
      <button type="button" className="button button--secondary" onClick={() => setAsking(false)}>
        {props.keepLabel}
      </button>
    </span>
  );
}
