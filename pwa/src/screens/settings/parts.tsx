/** Pieces of the account screens: a secret to copy, a confirmed action, the offline note. */
import { useId, useRef, useState } from "react";
import { useMessages } from "../../i18n.ts";
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

/**
 * A final action on one item of a list (revoke a key, remove a member): its button names the
 * item for screen readers and asks once more before it acts.
 */
export function ConfirmAction(props: {
  label: string;
  ariaLabel: string;
  confirm: string;
  busy?: boolean;
  onConfirm: () => void;
}) {
  const t = useMessages(settingsMessages);
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button
        type="button"
        className="button button--danger"
        aria-label={props.ariaLabel}
        disabled={props.busy}
        onClick={() => setAsking(true)}
      >
        {props.label}
      </button>
    );
  }
  return (
    <div className="confirm">
      <span className="confirm__text">{props.confirm}</span>
      <button
        type="button"
        className="button button--danger"
        onClick={() => {
          setAsking(false);
          props.onConfirm();
        }}
      >
        {t("yes")}
      </button>
      <button type="button" className="button button--secondary" onClick={() => setAsking(false)}>
        {t("no")}
      </button>
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
