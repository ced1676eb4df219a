import { Link } from "wouter";
import { paths } from "../../app/paths.ts";
import { useMessages } from "../../i18n.ts";
import { Card } from "../../ui/page.tsx";
import { recordsIoMessages } from "./messages.ts";

/** Settings' way to "Your records" (export and import). */
export function RecordsLink() {
  const t = useMessages(recordsIoMessages);
  return (
    <Card>
      <ul className="list settings-links">
        <li className="list__item">
          <Link href={paths.records} className="list__link">
            <span className="list__title">{t("settingsLink")}</span>
            <span className="list__meta">{t("settingsLinkText")}</span>
          </Link>
        </li>
      </ul>
    </Card>
  );
}
