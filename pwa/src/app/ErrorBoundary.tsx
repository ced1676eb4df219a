/**
 * A screen that fails (a bug, or storage the browser took away) shows what happened and a way
 * on, instead of a blank page; the rest of the app (navigation, sync bar) keeps working.
 */
import { Component, type ReactNode } from "react";
import { useMessages } from "../i18n.ts";
import { errorText } from "../ui/page.tsx";
import { shellMessages } from "./shell-messages.ts";

interface Props {
  readonly children: ReactNode;
  /** Changing it (the location) clears the error. */
  readonly resetKey: string;
}

export class ErrorBoundary extends Component<Props, { error: unknown; key: string }> {
  override state = { error: undefined as unknown, key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: { error: unknown; key: string }) {
    return props.resetKey === state.key ? null : { error: undefined, key: props.resetKey };
  }

  override componentDidCatch(error: unknown) {
    console.error("hivekeep: a screen failed", error);
  }

  override render() {
    if (this.state.error === undefined) return this.props.children;
    return <ScreenFailed error={this.state.error} />;
  }
}

function ScreenFailed(props: { error: unknown }) {
  const t = useMessages(shellMessages);
  return (
    <div className="error" role="alert">
      <p>{t("screenFailed", { message: errorText(props.error) })}</p>
      <button
        type="button"
        className="button button--secondary"
        onClick={() => window.location.reload()}
      >
        {t("reload")}
      </button>
    </div>
  );
}
