/**
 * The hives due for a visit (never visited first), the first few with "Show all". A scale's
 * readings are no visit: a hive whose scale posts and nobody looked in is due.
 */
import { Link } from "wouter";
import { paths } from "../../app/paths.ts";
import { useMessages } from "../../i18n.ts";
import { Card, Empty, Writable } from "../../ui/page.tsx";
import { useShowAll } from "../../ui/show-all.tsx";
import { dashboardMessages } from "./messages.ts";
import { type DueHive, thresholdDays } from "./queries.ts";

/** Due hives shown before "Show all". */
const dueShown = 6;

export function DueCard(props: { readonly due: readonly DueHive[] }) {
  const t = useMessages(dashboardMessages);
  const { due } = props;
  const { shown, listId, toggle } = useShowAll(due, dueShown, {
    all: t("showAllDue", { count: due.length }),
    fewer: t("showFewerDue"),
  });
  return (
    <Card title={t("dueTitle")} className="dash__due">
      <p className="muted">{t("dueHint", { days: thresholdDays })}</p>
      {due.length === 0 ? (
        <Empty>{t("dueNone")}</Empty>
      ) : (
        <ul className="list" id={listId}>
          {shown.map((h) => (
            <li key={h.hiveId} className="list__item dash__due-item">
              <Link href={paths.hive(h.hiveId)} className="list__link">
                <span className="list__title">{h.hiveName}</span>
                <span className="list__meta">
                  {h.apiaryName && <span>{h.apiaryName}</span>}
                  {h.daysSinceLast < 0 ? (
                    <span className="badge badge--warn">{t("never")}</span>
                  ) : (
                    <span>{t("lastVisit", { count: h.daysSinceLast })}</span>
                  )}
                </span>
              </Link>
              <Writable>
                <Link
                  href={paths.inspect(h.hiveId)}
                  className="button dash__inspect"
                  aria-label={t("inspectHive", { hive: h.hiveName })}
                >
                  {t("inspect")}
                </Link>
              </Writable>
            </li>
          ))}
        </ul>
      )}
      {toggle && <div className="form__actions">{toggle}</div>}
    </Card>
  );
}
