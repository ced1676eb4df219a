/**
 * A weight alert as the overview and the hive page show it (issue 29): "Possible swarm" with the
 * drop, "May be starving" with the weight and the threshold. The rules are client-core's
 * (core/hive-alerts.ts); this only words them.
 */
import type { HiveAlert } from "@hivekeep/client-core/core";
import type { ReactNode } from "react";
import { useNow } from "../app/now.tsx";
import { useFormat } from "../format.ts";
import { useMessages } from "../i18n.ts";
import { readingsMessages } from "./readings-messages.ts";

export function AlertText(props: { readonly alert: HiveAlert }) {
  const t = useMessages(readingsMessages);
  const fmt = useFormat();
  const now = useNow();
  const a = props.alert;
  return a.kind === "swarm"
    ? t("swarmText", {
        from: fmt.kg(a.fromKg),
        to: fmt.kg(a.toKg),
        when: `${fmt.dateTime(new Date(a.at))}, ${fmt.relativeTime(new Date(a.at), now)}`,
      })
    : t("starvingText", {
        kg: fmt.kg(a.kg),
        date: fmt.date(new Date(a.at)),
        threshold: fmt.kg(a.thresholdKg),
      });
}

/** The alert's name: "Possible swarm", "May be starving". */
export function useAlertTitle(): (alert: HiveAlert) => string {
  const t = useMessages(readingsMessages);
  return (a) => t(a.kind === "swarm" ? "swarm" : "starving");
}

/** An alert as a warning on a page; `hive` names (or links) the hive when the page is not its. */
export function AlertNotice(props: { readonly alert: HiveAlert; readonly hive?: ReactNode }) {
  const title = useAlertTitle();
  return (
    <p className="notice notice--warn hive-alert" role="status" data-alert={props.alert.kind}>
      <strong>
        {props.hive !== undefined && <>{props.hive}: </>}
        {title(props.alert)}
      </strong>{" "}
      <AlertText alert={props.alert} />
    </p>
  );
}
