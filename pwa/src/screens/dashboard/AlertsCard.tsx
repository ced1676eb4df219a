/** The weight alerts of every hive (a possible swarm, a hive that may be starving), each linked. */
import type { HiveAlert } from "@hivekeep/client-core/core";
import type { Hive } from "@hivekeep/proto";
import { Link } from "wouter";
import { paths } from "../../app/paths.ts";
import { useMessages } from "../../i18n.ts";
import { AlertText, useAlertTitle } from "../../ui/alerts.tsx";
import { Card } from "../../ui/page.tsx";
import { readingsMessages } from "../../ui/readings-messages.ts";

export function AlertsCard(props: {
  readonly alerts: readonly { readonly hive: Hive; readonly alerts: readonly HiveAlert[] }[];
}) {
  const t = useMessages(readingsMessages);
  const title = useAlertTitle();
  if (props.alerts.length === 0) return null;
  return (
    <Card title={t("alertsTitle")} className="dash__alerts">
      <ul className="list">
        {props.alerts.flatMap(({ hive, alerts }) =>
          alerts.map((a) => (
            <li key={`${hive.id}-${a.kind}-${a.at}`} className="list__item" data-alert={a.kind}>
              <Link href={paths.hive(hive.id)} className="list__link">
                <span className="list__title">
                  {hive.name}: <span className="badge badge--warn">{title(a)}</span>
                </span>
                <span className="list__meta">
                  <AlertText alert={a} />
                </span>
              </Link>
            </li>
          )),
        )}
      </ul>
    </Card>
  );
}
