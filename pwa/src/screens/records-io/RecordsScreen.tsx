/**
 * "Your records" (Settings → Your records): take the organization's records out as a backup or
 * spreadsheets, and bring records in from a file, all on this device from its replica, so it
 * works offline. A read-only (demo) session can take records out but not bring any in.
 */
import "./records-io.css";
import { useReadOnly } from "../../app/client.tsx";
import { paths } from "../../app/paths.ts";
import { useMessages } from "../../i18n.ts";
import { Card, Page, ReadOnlyNote } from "../../ui/page.tsx";
import { ExportCard } from "./ExportCard.tsx";
import { ImportCard } from "./ImportCard.tsx";
import { recordsIoMessages } from "./messages.ts";

export default function RecordsScreen() {
  const t = useMessages(recordsIoMessages);
  const readOnly = useReadOnly();
  return (
    <Page title={t("title")} back={paths.settings}>
      <p className="muted">{t("intro")}</p>
      <div className="records-io">
        <ExportCard />
        {readOnly ? (
          <Card title={t("import")}>
            <ReadOnlyNote />
          </Card>
        ) : (
          <ImportCard />
        )}
      </div>
    </Page>
  );
}
