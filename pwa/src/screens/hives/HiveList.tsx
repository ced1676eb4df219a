/**
 * Every hive (`/hives`): its status, reigning queen, apiary and how long ago it was last
 * inspected; searched in place by name or QR code. Lost and dissolved hives come last, greyed.
 */
import "./hive-list.css";
import { useMemo, useState } from "react";
import { Link } from "wouter";
import { useLive } from "../../app/client.tsx";
import { allApiaries, allHives, listAll } from "../../app/list-all.ts";
import { paths } from "../../app/routes.tsx";
import { toDate, useFormat } from "../../format.ts";
import { useMessages } from "../../i18n.ts";
import { TextField } from "../../ui/forms.tsx";
import { Empty, Loading, Page, Writable } from "../../ui/page.tsx";
import {
  compareHives,
  inspectionAge,
  isInactive,
  matchesSearch,
  reigningQueens,
} from "./hive-logic.ts";
import { hiveMessages } from "./messages.ts";
import { HiveStatusBadge, QueenMark } from "./parts.tsx";

export default function HiveList() {
  const t = useMessages(hiveMessages);
  const fmt = useFormat();
  const [query, setQuery] = useState("");
  const data = useLive(async (c) => {
    const [hives, apiaries, queens] = await Promise.all([
      allHives(c),
      allApiaries(c),
      listAll(
        (page) => c.queens.listQueens({ onlyActive: true, page }),
        (r) => r.queens,
      ),
    ]);
    // A hive's newest inspection comes by its index (ListInspections is newest first).
    const last = await Promise.all(
      hives.map(
        async (h) =>
          (await c.inspections.listInspections({ hiveId: h.id, page: { pageSize: 1 } }))
            .inspections[0]?.date,
      ),
    );
    return {
      hives: hives
        .map((hive, i) => ({ hive, lastInspection: toDate(last[i]) }))
        .sort((a, b) => compareHives(a.hive, b.hive)),
      apiaryName: new Map(apiaries.map((a) => [a.id, a.name])),
      queenOf: reigningQueens(queens),
    };
  }, []);

  const shown = useMemo(
    () => data?.hives.filter((x) => matchesSearch(x.hive, query)),
    [data, query],
  );
  const now = new Date();

  return (
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
      {data === undefined || shown === undefined ? (
        <Loading />
      ) : data.hives.length === 0 ? (
        <Empty>{t("empty")}</Empty>
      ) : (
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
                      <span className="list__meta">
                        <QueenMark queen={data.queenOf.get(h.id)} />
                        <span>{data.apiaryName.get(h.apiaryId) ?? t("unknownApiary")}</span>
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
      )}
    </Page>
  );
}
