/** The hive page's timeline: its events, newest first, each with what it was about. */
import { type Event, EventType } from "@hivekeep/proto";
import type { ReactNode } from "react";
import { Link } from "wouter";
import { paths } from "../../../app/paths.ts";
import { label } from "../../../ui/messages.ts";
import { Card, Empty } from "../../../ui/page.tsx";
import { movedEnds } from "../hive-logic.ts";
import { QueenMark, useSectionRows, useWords } from "../parts.tsx";
import { inspectionSummary, statusChangeText, type Words } from "../present.ts";
import type { HivePageData } from "../queries.ts";

export function TimelineCard(props: {
  readonly data: HivePageData;
  readonly apiaryName: (id: string) => string;
}) {
  const words = useWords();
  const { t, tc, fmt } = words;
  const { data } = props;
  const { shown, listId, toggle } = useSectionRows(data.events);
  const detail = eventDetail(data, props.apiaryName, words);
  return (
    <Card title={t("timeline")} className="hive-card">
      {data.events.length === 0 ? (
        <Empty>{t("noEvents")}</Empty>
      ) : (
        <ol className="list hive-timeline" id={listId}>
          {shown.map((e) => (
            <li key={e.id} className="list__item">
              <div className="list__row list__stack">
                <span className="list__head">
                  <span className="list__title">{label.event(tc, e.type)}</span>
                  <span className="muted">{fmt.date(e.date)}</span>
                </span>
                <span className="list__meta">{detail(e)}</span>
              </div>
            </li>
          ))}
        </ol>
      )}
      {toggle}
    </Card>
  );
}

/** What an event was about: where, which inspection (a link), how much honey, which queen. */
function eventDetail(
  data: HivePageData,
  apiaryName: (id: string) => string,
  words: Words,
): (e: Event) => ReactNode {
  const { t, tc, fmt } = words;
  const queens = new Map(data.queens.map((q) => [q.id, q]));
  const treatments = new Map(data.treatments.map((x) => [x.id, x]));
  const inspections = new Map(data.visits.map((x) => [x.id, x]));
  const harvests = new Map(data.harvests.map((x) => [x.id, x]));
  return (e) => {
    switch (e.type) {
      case EventType.CREATED:
        return t("createdAt", { apiary: apiaryName(e.apiaryId) });
      case EventType.MOVED: {
        const { from, to } = movedEnds(e.detailJson);
        return t("movedFromTo", { from: apiaryName(from), to: apiaryName(to || e.apiaryId) });
      }
      case EventType.INSPECTION: {
        if (!e.refId) return null;
        const i = inspections.get(e.refId);
        return (
          <Link href={paths.inspection(e.refId)} className="tap-link">
            {(i && inspectionSummary(i, words)) || t("openInspection", { date: fmt.date(e.date) })}
          </Link>
        );
      }
      case EventType.HARVEST: {
        const variety = harvests.get(e.refId)?.variety;
        return `${fmt.kg(e.amountKg)} ${variety || t("honey")}`;
      }
      case EventType.TREATMENT:
        return treatments.get(e.refId)?.product ?? null;
      case EventType.QUEEN_INTRODUCED:
      case EventType.QUEEN_REPLACED:
        return queens.has(e.queenId) ? <QueenMark queen={queens.get(e.queenId)} /> : null;
      case EventType.STATUS:
      case EventType.DISSOLVED:
        return statusChangeText(e, tc);
      default:
        return null;
    }
  };
}
