/**
 * Pieces of the account screens: a secret to copy, the offline note, and a list kept on the
 * server only (API keys, members) with the screen around it.
 */
import "./parts.css";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { paths } from "../../app/paths.ts";
import { useOnline } from "../../app/useOnline.ts";
import { useMessages } from "../../i18n.ts";
import { Card, ErrorText, Page } from "../../ui/page.tsx";
import { useAuthError } from "../account/useAuthError.ts";
import { settingsMessages } from "./messages.ts";

/** A value shown once (an API key, an invitation link), read-only, with a Copy button. */
export function CopyField(props: { label: string; value: string; hint?: string }) {
  const t = useMessages(settingsMessages);
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<"yes" | "failed" | undefined>();

  async function copy() {
    try {
      await navigator.clipboard.writeText(props.value);
      setCopied("yes");
    } catch {
      input.current?.select();
      setCopied("failed");
    }
  }

  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {props.label}
      </label>
      <div className="copy">
        <input
          ref={input}
          id={id}
          className="input copy__value"
          readOnly
          value={props.value}
          spellCheck={false}
          aria-describedby={props.hint ? `${id}-hint` : undefined}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" className="button" onClick={() => void copy()}>
          {t("copy")}
        </button>
      </div>
      {props.hint && (
        <p className="field__hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      )}
      <p className="copy__status" role="status">
        {copied === "yes" ? t("copied") : copied === "failed" ? t("copyFailed") : ""}
      </p>
    </div>
  );
}

/** Said where a screen needs the server and the browser is offline. */
export function NeedsNetwork() {
  const t = useMessages(settingsMessages);
  return (
    <p className="notice notice--warn" role="status">
      {t("needsNetwork")}
    </p>
  );
}

/**
 * The end of a form the server answers (create a key, invite): what went wrong, and the submit
 * button, off while the call runs (then saying so) or while the screen cannot reach the server.
 */
export function ServerFormFooter(props: {
  readonly error: string | undefined;
  readonly busy: boolean;
  readonly disabled: boolean;
  readonly label: string;
  readonly busyLabel: string;
}) {
  return (
    <>
      <ErrorText text={props.error} />
      <div className="form__actions">
        <button
          type="submit"
          className="button button--primary"
          disabled={props.busy || props.disabled}
        >
          {props.busy ? props.busyLabel : props.label}
        </button>
      </div>
    </>
  );
}

/**
 * A settings screen of what only the server keeps (API keys, members): when `unavailable` says
 * why this session has none (single-user mode, a demo, not an owner), that alone; otherwise the
 * intro, the offline note while offline, and the screen's cards.
 */
export function ServerScreen(props: {
  readonly title: string;
  readonly intro: string;
  readonly unavailable: string | undefined;
  readonly online: boolean;
  readonly children: ReactNode;
}) {
  if (props.unavailable !== undefined) {
    return (
      <Page title={props.title} back={paths.settings}>
        <Card>
          <p>{props.unavailable}</p>
        </Card>
      </Page>
    );
  }
  return (
    <Page title={props.title} back={paths.settings}>
      <p className="muted">{props.intro}</p>
      {!props.online && <NeedsNetwork />}
      {props.children}
    </Page>
  );
}

export interface ServerList<T> {
  /** Undefined until loaded. */
  readonly items: readonly T[] | undefined;
  readonly update: (change: (items: readonly T[]) => readonly T[]) => void;
  readonly error: string | undefined;
  readonly load: () => Promise<void>;
  readonly online: boolean;
}

/**
 * A list the server keeps (not the replica): loaded while `enabled` and online, and again when
 * the connection comes back.
 */
export function useServerList<T>(
  fetch: () => Promise<readonly T[]>,
  enabled: boolean,
): ServerList<T> {
  const online = useOnline();
  const describe = useAuthError();
  const [items, setItems] = useState<readonly T[] | undefined>();
  const [error, setError] = useState<string | undefined>();

  async function load() {
    setError(undefined);
    try {
      setItems(await fetch());
    } catch (err) {
      setError(describe(err));
    }
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: loads once, and again when online.
  useEffect(() => {
    if (online && enabled) void load();
  }, [online, enabled]);

  return {
    items,
    update: (change) => setItems((prev) => change(prev ?? [])),
    error,
    load,
    online,
  };
}

/** A server list's rows once loaded; before that, why not (with Retry) or Loading. */
export function ServerListView<T>(props: {
  readonly list: ServerList<T>;
  readonly children: (items: readonly T[]) => ReactNode;
}) {
  const t = useMessages(settingsMessages);
  const { items, error, online } = props.list;
  if (error) {
    return (
      <>
        <ErrorText text={error} />
        <div className="form__actions">
          <button
            type="button"
            className="button button--secondary"
            disabled={!online}
            onClick={() => void props.list.load()}
          >
            {t("retry")}
          </button>
        </div>
      </>
    );
  }
  if (items === undefined) {
    return online ? (
      <p className="muted" role="status">
        {t("loading")}
      </p>
    ) : null;
  }
  return props.children(items);
}
