/** The overview's figures: apiaries, hives, queens, tasks (overdue ones marked) and the season's honey. */
import type { GetDashboardResponse } from "@hivekeep/proto";
import { useFormat } from "../../format.ts";
import { useMessages } from "../../i18n.ts";
import { dashboardMessages } from "./messages.ts";
import { figures } from "./present.ts";

export function Figures(props: { readonly d: GetDashboardResponse }) {
  const t = useMessages(dashboardMessages);
  const fmt = useFormat();
  return (
    <section aria-label={t("figures")}>
      <dl className="stats dash__stats">
        {figures(fmt, props.d).map((tile) => (
          <div key={tile.key} className={tile.bad ? "stat dash__stat--bad" : "stat"}>
            <dt className="stat__label">{t(tile.key)}</dt>
            <dd className="stat__value">{tile.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
