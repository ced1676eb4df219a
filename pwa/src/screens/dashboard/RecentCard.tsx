/**
 * The recent visits, newest first: each with its hive, date, readings and note; a scale's run of
 * readings on one hive folded into one row that links to the hive (its charts).
 */
import { Link } from "wouter";
import { paths } from "../../app/paths.ts";
import { useFormat } from "../../format.ts";
import { useMessages } from "../../i18n.ts";
import { Card, Empty } from "../../ui/page.tsx";
import { dashboardMessages } from "./messages.ts";
import { type Recent, readingsLine } from "./present.ts";
import { groupRecent } from "./recent.ts";

export function RecentCard(props: { readonly recent: readonly Recent[] }) {
  const t = useMessages(dashboardMessages);
  const { recent } = props;
  return (
    <Card title={t("recentTitle")}>
      {recent.length === 0 ? (
        <Empty>{t("recentNone")}</Empty>
      ) : (
        <ul className="list">
          {groupRecent(recent).map((row) =>
            row.kind === "measurements" ? (
              <MeasurementsRow key={row.items[0]?.id} items={row.items} />
            ) : (
              <VisitRow key={row.item.id} visit={row.item} />
            ),
          )}
        </ul>
      )}
    </Card>
  );
}

/** A scale's run of readings: how many, from when to when, and the latest readings. */
function MeasurementsRow(props: { readonly items: readonly Recent[] }) {
  const t = useMessages(dashboardMessages);
  const fmt = useFormat();
  const [latest] = props.items;
  const oldest = props.items[props.items.length - 1];
  if (latest === undefined || oldest === undefined) return null;
  return (
    <li className="list__item">
      <Link href={paths.hive(latest.hiveId)} className="list__link">
        <span className="list__title">{latest.hiveName ?? t("removedHive")}</span>
        <span className="list__meta">
          <span className="badge">{t("measurements", { count: props.items.length })}</span>
          <span>
            {fmt.dateTime(oldest.date)} – {fmt.dateTime(latest.date)}
          </span>
          <Readings visit={latest} />
        </span>
      </Link>
    </li>
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
          {r.measurementOnly && <span className="badge">{t("measurement")}</span>}
          <Readings visit={r} />
          {!r.measurementOnly && r.note !== "" && <span className="dash__note">{r.note}</span>}
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
