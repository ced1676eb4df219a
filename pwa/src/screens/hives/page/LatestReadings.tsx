/**
 * A hive's scale at a glance: the newest value of each measurement and when the scale last
 * reported ("Scale last contact: 2 hours ago"). Nothing when the hive has no readings.
 */
import type { ReadingColumns } from "@hivekeep/client-core/ops";
import { useNow } from "../../../app/now.tsx";
import { useFormat } from "../../../format.ts";
import { useMessages } from "../../../i18n.ts";
import { Fact } from "../../../ui/facts.tsx";
import { Card } from "../../../ui/page.tsx";
import { readingsMessages } from "../../../ui/readings-messages.ts";
import { hiveMessages } from "../messages.ts";
import { latestValues } from "../present.ts";

export function LatestReadings(props: { readonly readings: ReadingColumns }) {
  const t = useMessages(hiveMessages);
  const tr = useMessages(readingsMessages);
  const fmt = useFormat();
  const now = useNow();
  const v = latestValues(props.readings);
  if (v.at === undefined) return null;
  const at = new Date(v.at);
  const value = (n: number | undefined, f: (n: number) => string) =>
    n === undefined ? undefined : f(n);
  return (
    <Card title={tr("latestTitle")} className="hive-card hive-latest">
      <p className="hive-latest__contact">
        <strong>{tr("scaleContact", { when: fmt.relativeTime(at, now) })}</strong>{" "}
        <span className="muted">({fmt.dateTime(at)})</span>
      </p>
      <dl className="facts">
        <Fact term={t("weight")}>{value(v.weightKg, fmt.kg)}</Fact>
        <Fact term={t("tempHive")}>{value(v.tempHive, fmt.celsius)}</Fact>
        <Fact term={t("tempOutside")}>{value(v.tempOutside, fmt.celsius)}</Fact>
        <Fact term={t("humidityHive")}>{value(v.humidityHive, fmt.percent)}</Fact>
        <Fact term={t("humidityOutside")}>{value(v.humidityOutside, fmt.percent)}</Fact>
      </dl>
      <p className="muted">
        {tr("readingsCount", {
          count: props.readings.at.length,
          date: fmt.date(new Date(props.readings.at[0] as number)),
        })}
      </p>
    </Card>
  );
}
