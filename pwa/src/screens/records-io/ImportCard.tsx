/**
 * Bringing records in: choose a file → a dry run on this device → the preview (what is new per
 * kind, what is already here, what stays behind, every problem with its line and column) →
 * "Import N records" → the result. Nothing is written while the file has problems: the button
 * is not there, and the device's service refuses such a file anyway. The import goes through the
 * one write path, so it syncs to every device like any other change.
 */
import { useEffect, useRef, useState } from "react";
import { Link } from "wouter";
import { paths } from "../../app/paths.ts";
import { useMessages } from "../../i18n.ts";
import { Card, ErrorText, errorText } from "../../ui/page.tsx";
import { recordsIoMessages } from "./messages.ts";
import { importTotal, kindName, notCarriedLines, previewRows, problemText } from "./present.ts";
import { type ImportSummary, useTransfer } from "./transfer.ts";

type ImportState =
  | { readonly step: "idle" }
  | { readonly step: "checking"; readonly file: string }
  | {
      readonly step: "preview" | "importing";
      readonly file: string;
      readonly content: string;
      readonly summary: ImportSummary;
    }
  | { readonly step: "done"; readonly summary: ImportSummary }
  | { readonly step: "failed"; readonly text: string };

export function ImportCard() {
  const t = useMessages(recordsIoMessages);
  const transfer = useTransfer();
  const [state, setState] = useState<ImportState>({ step: "idle" });

  async function check(file: File) {
    setState({ step: "checking", file: file.name });
    let content: string;
    try {
      content = await file.text();
    } catch (err) {
      setState({
        step: "failed",
        text: t("readFailed", { file: file.name, message: errorText(err) }),
      });
      return;
    }
    try {
      const summary = await transfer.importRecords(content, true);
      setState({ step: "preview", file: file.name, content, summary });
    } catch (err) {
      setState({
        step: "failed",
        text: t("checkFailed", { file: file.name, message: errorText(err) }),
      });
    }
  }

  async function confirm(content: string, file: string, preview: ImportSummary) {
    setState({ step: "importing", file, content, summary: preview });
    try {
      const summary = await transfer.importRecords(content, false);
      setState({ step: "done", summary });
    } catch (err) {
      setState({ step: "failed", text: t("importFailed", { message: errorText(err) }) });
    }
  }

  const checking = state.step === "checking" || state.step === "importing";
  return (
    <Card title={t("import")}>
      {state.step === "idle" && <p>{t("importText")}</p>}
      <div className="form__actions">
        <label
          className={`button ${state.step === "idle" ? "button--primary" : "button--secondary"} records-io__button records-io__file${checking ? " records-io__file--disabled" : ""}`}
        >
          <input
            type="file"
            className="records-io__file-input"
            accept=".json,.csv,application/json,text/csv"
            disabled={checking}
            onChange={(e) => {
              const file = e.target.files?.[0];
              // Choosing the same file again (after correcting it) must check it again.
              e.target.value = "";
              if (file !== undefined) void check(file);
            }}
          />
          <span>{state.step === "idle" ? t("chooseFile") : t("chooseOther")}</span>
        </label>
      </div>
      <p className="records-io__status" role="status">
        {state.step === "checking" && t("checking", { file: state.file })}
        {state.step === "importing" && t("importing")}
      </p>
      {state.step === "failed" && <ErrorText text={state.text} />}
      {(state.step === "preview" || state.step === "importing") && (
        <Preview
          file={state.file}
          summary={state.summary}
          busy={state.step === "importing"}
          onConfirm={() => void confirm(state.content, state.file, state.summary)}
        />
      )}
      {state.step === "done" && <Done count={importTotal(state.summary)} />}
    </Card>
  );
}

/** Focused when it appears (on a phone it is below the fold), so the reader is taken there. */
function useFocusOnMount<E extends HTMLElement>() {
  const ref = useRef<E>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return ref;
}

function Done(props: { readonly count: number }) {
  const t = useMessages(recordsIoMessages);
  const ref = useFocusOnMount<HTMLParagraphElement>();
  return (
    <div className="notice notice--info records-io__done">
      <p className="notice__text" role="status" tabIndex={-1} ref={ref}>
        {t("imported", { count: props.count })}
      </p>
      <Link href={paths.hives} className="button button--secondary records-io__button">
        {t("toHives")}
      </Link>
    </div>
  );
}

function Preview(props: {
  readonly file: string;
  readonly summary: ImportSummary;
  readonly busy: boolean;
  readonly onConfirm: () => void;
}) {
  const t = useMessages(recordsIoMessages);
  const { summary } = props;
  const rows = previewRows(summary);
  const total = importTotal(summary);
  const notCarried = notCarriedLines(t, summary);
  const problems = summary.problems;
  const format = summary.format === "" ? "" : t(`format.${summary.format}` as never);
  const ref = useFocusOnMount<HTMLHeadingElement>();
  return (
    <section className="records-io__preview" aria-label={props.file}>
      <h3 className="records-io__file-name" tabIndex={-1} ref={ref}>
        {format === "" ? props.file : t("fileIs", { file: props.file, format })}
      </h3>
      {rows.length > 0 && (
        <table className="records-io__counts">
          <thead>
            <tr>
              <th scope="col">{t("kind")}</th>
              <th scope="col">{t("new")}</th>
              <th scope="col">{t("existing")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((c) => (
              <tr key={c.entity}>
                <th scope="row">{kindName(t, c.entity)}</th>
                <td>{c.created}</td>
                <td>{c.existing}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {notCarried.length > 0 && (
        <div className="records-io__not-carried">
          <h4>{t("notCarried")}</h4>
          <p className="muted">{t("notCarriedText")}</p>
          <ul>
            {notCarried.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      )}
      {problems.length > 0 ? (
        <div className="records-io__problems" role="alert">
          <h4>{t("problems", { count: problems.length })}</h4>
          <p>{t("problemsText")}</p>
          <ol>
            {problems.map((p, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: problems have no id; the list is fixed.
              <li key={i}>{problemText(t, p)}</li>
            ))}
          </ol>
        </div>
      ) : total === 0 ? (
        <p className="notice notice--info">{t("nothingNew")}</p>
      ) : (
        <div className="form__actions">
          <button
            type="button"
            className="button button--primary records-io__button"
            disabled={props.busy}
            onClick={props.onConfirm}
          >
            {t("importRecords", { count: total })}
          </button>
        </div>
      )}
    </section>
  );
}
