/**
 * Every withdrawal period running now, soonest end first: the hive, the product and when it
 * ends (issue 26). Derived with client-core's one rule (core/withdrawal.ts); shown only while one
 * runs. Treatments of deleted hives are left out (no honey is taken from them).
 */
import { runningWithdrawals } from "@hivekeep/client-core/core";
import type { Hive, Treatment } from "@hivekeep/proto";
import { Link } from "wouter";
import { useNow } from "../../app/now.tsx";
import { paths } from "../../app/paths.ts";
import { useFormat } from "../../format.ts";
import { useMessages } from "../../i18n.ts";
import { Card } from "../../ui/page.tsx";
import { dashboardMessages } from "./messages.ts";

export function WithdrawalsCard(props: {
  readonly treatments: readonly Treatment[];
  readonly hives: readonly Hive[];
}) {
  const t = useMessages(dashboardMessages);
  const fmt = useFormat();
  const now = useNow();
  const names = new Map(props.hives.map((h) => [h.id, h.name]));
  const running = runningWithdrawals(
    props.treatments.filter((x) => names.has(x.hiveId)),
    now,
  );
  if (running.length === 0) return null;
  return (
    <Card title={t("withdrawalsTitle")} className="dash__withdrawals">
      <ul className="list" data-testid="running-withdrawals">
        {running.map(({ treatment: x, until }) => (
          <li key={x.id} className="list__item">
            <Link href={paths.hive(x.hiveId)} className="list__link">
              <span className="list__title">{names.get(x.hiveId)}</span>
              <span className="list__meta">
                <span>{x.product}</span>
                <span className="badge badge--bad">
                  {t("withdrawalUntil", { date: fmt.date(until) })}
                </span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </Card>
  );
}
