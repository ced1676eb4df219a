/**
 * The recent visits, newest first: each with its hive, date, readings and note. A scale's
 * readings are no visit: they are shown on the hive's page (latest values, charts).
 */
import { Link } from "wouter";
import { paths } from "../../app/paths.ts";
import { useFormat } from "../../format.ts";
import { useMessages } from "../../i18n.ts";
import { Card, Empty } from "../../ui/page.tsx";
import { dashboardMessages } from "./messages.ts";
import { type Recent, readingsLine } from "./present.ts";

export function RecentCard(props: { readonly recent: readonly Recent[] }) {
  const t = useMessages(dashboardMessages);
  const { recent } = props;
  return (
    <Card title={t("recentTitle")}>
      {recent.length === 0 ? (
        <Empty>{t("recentNone")}</Empty>
      ) : (
        <ul className="list">
          {recent.map((visit) => (
            <VisitRow key={visit.id} visit={visit} />
          ))}
        </ul>
      )}
    </Card>
  );
}

function VisitRow(props: { readonly visit: Recent }) {
  const t = useMessages(dashboardMessages);
  const fmt = useFormat();
  const r = props.visit;
  return (
    <li className="list__item">
      <Link href={paths.inspection(r.id)} className="list__link">
        <span className="list__title">{r.hiveName ?? t("removedHive")}</span>
        <span className="list__meta">
          <span>{fmt.dateTime(r.date)}</span>
          <Readings visit={r} />
          {r.note !== "" && <span className="dash__note">{r.note}</span>}
        </span>
      </Link>
    </li>
  );
}

function Readings(props: { readonly visit: Recent }) {
  const t = useMessages(dashboardMessages);
  const fmt = useFormat();
  const { readings } = props.visit;
  if (readings.length === 0) return null;
  return <span>{readingsLine(fmt, readings, (value) => t("outsideValue", { value }))}</span>;
}
