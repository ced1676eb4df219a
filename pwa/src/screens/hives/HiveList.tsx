/**
 * Every hive (`/hives`): its status, reigning queen, apiary and how long ago it was last
 * inspected; searched in place by name or QR code. Lost and dissolved hives come last, greyed.
 */
import "./hive-list.css";
import { withdrawalEndsByHive } from "@hivekeep/client-core/core";
import { type ReactNode, useMemo, useState } from "react";
import { Link } from "wouter";
import { useNow } from "../../app/now.tsx";
import { paths } from "../../app/paths.ts";
import { useFormat } from "../../format.ts";
import { useMessages } from "../../i18n.ts";
import { TextField } from "../../ui/forms.tsx";
import { Empty, LiveView, Loading, Page, Writable } from "../../ui/page.tsx";
import { inspectionAge, isInactive, matchesSearch } from "./hive-logic.ts";
import { hiveMessages } from "./messages.ts";
import { HiveStatusBadge, QueenMark } from "./parts.tsx";
import { type HiveListData, useHiveList } from "./queries.ts";

export default function HiveList() {
  const t = useMessages(hiveMessages);
  const live = useHiveList();
  const frame = (content: ReactNode) => (
    <Page
      title={t("title")}
      actions={
        <Writable>
          <Link href={paths.newHive()} className="button">
            {t("new")}
          </Link>
        </Writable>
      }
    >
      {content}
    </Page>
  );
  // While the list loads, the title and "New hive" show already; a failure says so instead.
  return (
    <LiveView live={live} back={paths.dashboard} loading={frame(<Loading />)}>
      {(data) =>
        frame(data.hives.length === 0 ? <Empty>{t("empty")}</Empty> : <Hives data={data} />)
      }
    </LiveView>
  );
}

/** The search and the hives it matches. */
function Hives({ data }: { data: HiveListData }) {
  const t = useMessages(hiveMessages);
  const fmt = useFormat();
  const now = useNow();
  const [query, setQuery] = useState("");
  const withdrawalEnds = useMemo(() => withdrawalEndsByHive(data.treatments, now), [data, now]);
  const shown = useMemo(
    () => data.hives.filter((x) => matchesSearch(x.hive, query)),
    [data, query],
  );
  return (
    <>
      <div className="hive-search">
        <TextField
          type="search"
          label={t("search")}
          hint={t("searchHint")}
          value={query}
          onChange={setQuery}
          autoComplete="off"
        />
        <p className="muted" aria-live="polite">
          {query.trim() === ""
            ? t("count", { count: data.hives.length })
            : t("shown", { shown: shown.length, count: data.hives.length })}
        </p>
      </div>
      {shown.length === 0 ? (
        <Empty>{t("noMatch", { query: query.trim() })}</Empty>
      ) : (
        <ul className="list">
          {shown.map(({ hive: h, lastInspection }) => {
            const age = inspectionAge(lastInspection, now);
            const inactive = isInactive(h.status);
            return (
              <li key={h.id} className={`list__item${inactive ? " hive-row--inactive" : ""}`}>
                <Link href={paths.hive(h.id)} className="list__link list__stack">
                  <span className="list__head">
                    <span className="list__title">{h.name}</span>
                    <HiveStatusBadge status={h.status} />
                  </span>
                  {withdrawalEnds.has(h.id) && (
                    <span className="badge badge--bad hive-row__withdrawal">
                      {t("withdrawalShort", { date: fmt.date(withdrawalEnds.get(h.id)) })}
                    </span>
                  )}
                  <span className="list__meta">
                    <QueenMark queen={data.queenOf.get(h.id)} />
                    <span>{data.apiaryNames.get(h.apiaryId) ?? t("unknownApiary")}</span>
                    {age.kind === "never" ? (
                      <span className={inactive ? "badge" : "badge badge--warn"}>
                        {t("neverInspected")}
                      </span>
                    ) : (
                      <span className={age.due && !inactive ? "badge badge--warn" : ""}>
                        {t("inspected", { when: fmt.relativeDays(lastInspection, now) })}
                      </span>
                    )}
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}
