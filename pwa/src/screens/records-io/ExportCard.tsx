/**
 * Taking records out, from this device's replica (offline too): the Hivekeep backup as the
 * device's TransferService writes it, and spreadsheets made from that backup in the app's
 * language, as a ZIP of CSV files or an XLSX workbook. The spreadsheet writers load only when
 * asked for (their own chunks).
 */
import { useState } from "react";
import { useNow } from "../../app/now.tsx";
import { deviceTimeZone } from "../../format.ts";
import { useMessages, useSheetLanguage } from "../../i18n.ts";
import { Card, ErrorText, errorText } from "../../ui/page.tsx";
import { mimeTypes, saveFile } from "./download.ts";
import { recordsIoMessages } from "./messages.ts";
import { useTransfer } from "./transfer.ts";

type Kind = "backup" | "zip" | "xlsx";

type ExportState =
  | { readonly step: "idle" }
  | { readonly step: "busy"; readonly file: string }
  | { readonly step: "saved"; readonly file: string }
  | { readonly step: "failed"; readonly message: string };

export function ExportCard() {
  const t = useMessages(recordsIoMessages);
  const transfer = useTransfer();
  const lang = useSheetLanguage();
  const now = useNow();
  const [state, setState] = useState<ExportState>({ step: "idle" });

  async function run(kind: Kind) {
    const exportedAt = now.toISOString();
    const { exportFileName } = await import("@hivekeep/client-core/spreadsheets");
    const file = exportFileName(kind, exportedAt);
    setState({ step: "busy", file });
    try {
      const text = await transfer.backupText();
      if (kind === "backup") {
        saveFile(file, text, mimeTypes.json);
      } else if (kind === "zip") {
        const { spreadsheetZip } = await import("@hivekeep/client-core/spreadsheets");
        saveFile(
          file,
          spreadsheetZip(transfer.recordsOf(text), lang, exportedAt, deviceTimeZone()),
          mimeTypes.zip,
        );
      } else {
        const { spreadsheetXlsx } = await import("@hivekeep/client-core/xlsx");
        saveFile(
          file,
          await spreadsheetXlsx(transfer.recordsOf(text), lang, deviceTimeZone()),
          mimeTypes.xlsx,
        );
      }
      setState({ step: "saved", file });
    } catch (err) {
      setState({ step: "failed", message: errorText(err) });
    }
  }

  const busy = state.step === "busy";
  const choices: readonly { kind: Kind; label: string; text: string }[] = [
    { kind: "backup", label: t("backup"), text: t("backupText") },
    { kind: "zip", label: t("zip"), text: t("zipText") },
    { kind: "xlsx", label: t("xlsx"), text: t("xlsxText") },
  ];
  return (
    <Card title={t("export")}>
      <ul className="records-io__choices">
        {choices.map((c) => (
          <li key={c.kind} className="records-io__choice">
            <button
              type="button"
              className="button button--secondary records-io__button"
              disabled={busy}
              onClick={() => void run(c.kind)}
            >
              {c.label}
            </button>
            <span className="muted">{c.text}</span>
          </li>
        ))}
      </ul>
      <p className="records-io__status" role="status">
        {state.step === "busy" && t("preparing", { file: state.file })}
        {state.step === "saved" && t("saved", { file: state.file })}
      </p>
      {state.step === "failed" && (
        <ErrorText text={t("exportFailed", { message: state.message })} />
      )}
    </Card>
  );
}
