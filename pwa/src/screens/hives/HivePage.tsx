/**
 * One hive (`/hives/:id`): the stock card (last inspection, reigning queen, withdrawal periods,
 * open tasks), the big "Inspect" action and the others, then its inspections, treatments,
 * harvests, where it stood, its event timeline and its charts. Reads only the replica.
 */
import "./hive-page.css";
import { maxEventLimit } from "@hivekeep/client-core/core";
import {
  type Apiary,
  type Event,
  EventType,
  type Harvest,
  type Hive,
  type HiveStatus,
  type Inspection,
  type Queen,
  type Task,
  type Treatment,
} from "@hivekeep/proto";
import { lazy, type ReactNode, Suspense, useState } from "react";
import { Link, useLocation, useParams } from "wouter";
import { useClient, useLiveResult, useReadOnly } from "../../app/client.tsx";
import { allApiaries, listAll } from "../../app/list-all.ts";
import { paths } from "../../app/routes.tsx";
import { type Format, toDate, useFormat } from "../../format.ts";
import { type Messages, type Translate, useMessages } from "../../i18n.ts";
import { commonMessages, label } from "../../ui/messages.ts";
import {
  Card,
  ConfirmButton,
  Empty,
  ErrorNote,
  Loading,
  NotFound,
  Page,
  useAction,
  Writable,
} from "../../ui/page.tsx";
import { isColonyCheck, isMeasurementOnly } from "../inspections/fields.ts";
import { HarvestRow, TreatmentRow } from "../records/RecordRows.tsx";
import { TaskRow } from "../records/TaskRow.tsx";
import {
  movedEnds,
  placementHistory,
  reigningQueen,
  runningWithdrawals,
  type Stay,
  statusChange,
  tasksWithDoneHere,
} from "./hive-logic.ts";
import { hiveMessages } from "./messages.ts";
import { HiveStatusBadge, QueenMark } from "./parts.tsx";

const HiveCharts = lazy(() => import("./HiveCharts.tsx"));

type T = typeof hiveMessages extends Messages<infer M> ? Translate<M> : never;
type TC = typeof commonMessages extends Messages<infer M> ? Translate<M> : never;

/** How many rows a section shows before "Show all". */
const firstRows = 10;

interface HiveData {
  readonly hive: Hive;
  readonly apiaryName: Map<string, string>;
  readonly inspections: Inspection[];
  readonly queens: Queen[];
  readonly tasks: Task[];
  readonly treatments: Treatment[];
  readonly harvests: Harvest[];
  readonly events: Event[];
}

export default function HivePage() {
  const { id } = useParams<{ id: string }>();
  const result = useLiveResult(
    async (c): Promise<HiveData | undefined> => {
      const hive = (await c.hives.getHive({ id })).hive;
      if (hive === undefined) return undefined;
      const [apiaries, inspections, queens, tasks, treatments, harvests, events] =
        await Promise.all([
          allApiaries(c),
          listAll(
            (page) => c.inspections.listInspections({ hiveId: id, page }),
            (r) => r.inspections,
          ),
          listAll(
            (page) => c.queens.listQueens({ hiveId: id, page }),
            (r) => r.queens,
          ),
          listAll(
            (page) => c.tasks.listTasks({ hiveId: id, onlyOpen: true, page }),
            (r) => r.tasks,
          ),
          listAll(
            (page) => c.treatments.listTreatments({ hiveId: id, page }),
            (r) => r.treatments,
          ),
          listAll(
            (page) => c.harvests.listHarvests({ hiveId: id, page }),
            (r) => r.harvests,
          ),
          c.events.listEvents({ hiveId: id, limit: maxEventLimit }).then((r) => r.events),
        ]);
      return {
        hive,
        apiaryName: new Map(apiaries.map((a: Apiary) => [a.id, a.name])),
        inspections,
        queens,
        tasks,
        treatments,
        harvests,
        events,
      };
    },
    [id],
  );
  if (result === undefined) return <Loading />;
  if ("error" in result || result.value === undefined) return <NotFound back={paths.hives} />;
  return <HiveView data={result.value} />;
}

function HiveView({ data }: { data: HiveData }) {
  const t = useMessages(hiveMessages);
  const tc = useMessages(commonMessages);
  const fmt = useFormat();
  const client = useClient();
  const [, navigate] = useLocation();
  const readOnly = useReadOnly();
  const { hive: h } = data;
  const now = new Date();
  const apiaryName = (apiaryId: string) => data.apiaryName.get(apiaryId) ?? t("unknownApiary");
  const queen = reigningQueen(data.queens);
  const withdrawals = runningWithdrawals(data.treatments, now);
  const remove = useAction(async () => {
    await client.hives.deleteHive({ id: h.id });
    navigate(paths.hives, { replace: true });
  });

  return (
    <Page title={h.name} back={paths.hives}>
      <p className="hive-facts">
        <HiveStatusBadge status={h.status} />
        <Link href={paths.apiary(h.apiaryId)}>{apiaryName(h.apiaryId)}</Link>
        {h.type !== 0 && <span>{label.hiveType(tc, h.type)}</span>}
        {h.boxes > 0 && <span>{t("boxesCount", { count: h.boxes })}</span>}
        {h.colonyOrigin && <span>{h.colonyOrigin}</span>}
        {h.qrCode && (
          <span>
            {t("qrCode")}: {h.qrCode}
          </span>
        )}
      </p>
      {h.note && <p className="hive-note">{h.note}</p>}

      {withdrawals.map((w) => (
        <p key={w.id} className="notice notice--warn hive-withdrawal" role="status">
          <strong>
            {t("withdrawalWarn", {
              product: w.product,
              date: fmt.date(w.withdrawalUntil),
            })}
          </strong>
        </p>
      ))}

      <div className="hive-top">
        <Writable>
          <Link
            href={paths.inspect(h.id)}
            className="button button--primary button--big hive-actions__inspect"
          >
            {t("inspect")}
          </Link>
        </Writable>
        <StockCard data={data} queen={queen} t={t} tc={tc} fmt={fmt} now={now} />
        <Writable>
          <nav className="hive-actions__more" aria-label={t("moreActions")}>
            <Link href={paths.newQueen(h.id)} className="button button--secondary">
              {t("newQueen")}
            </Link>
            <Link href={paths.newTreatment(h.id)} className="button button--secondary">
              {t("newTreatment")}
            </Link>
            <Link href={paths.newHarvest(h.id)} className="button button--secondary">
              {t("newHarvest")}
            </Link>
            <Link href={paths.newTask({ hive: h.id })} className="button button--secondary">
              {t("newTask")}
            </Link>
            <Link href={paths.editHive(h.id)} className="button button--secondary">
              {t("edit")}
            </Link>
            <Link href={paths.relocateHive(h.id)} className="button button--secondary">
              {t("relocate")}
            </Link>
          </nav>
        </Writable>
      </div>

      <div className="grid hive-sections">
        <InspectionsCard inspections={data.inspections} t={t} tc={tc} fmt={fmt} now={now} />
        <TreatmentsCard treatments={data.treatments} t={t} now={now} />
        <HarvestsCard harvests={data.harvests} t={t} fmt={fmt} />
        <PlacementsCard
          stays={placementHistory(data.events)}
          apiaryName={apiaryName}
          t={t}
          fmt={fmt}
        />
      </div>
      <TimelineCard data={data} apiaryName={apiaryName} t={t} tc={tc} fmt={fmt} />
      <Suspense fallback={<Loading />}>
        <HiveCharts hiveId={h.id} />
      </Suspense>

      {!readOnly && (
        <Card className="hive-card">
          <ConfirmButton
            label={t("deleteHive")}
            confirm={t("deleteHiveConfirm")}
            onConfirm={() => void remove.run()}
            disabled={remove.busy}
          />
          <ErrorNote error={remove.error} />
        </Card>
      )}
    </Page>
  );
}

/** A label and its value, in the stock card's grid. */
function Fact(props: {
  readonly label: string;
  readonly children: ReactNode;
  /** Free text (varroa): two columns, so words are not broken. */
  readonly wide?: boolean;
}) {
  return (
    <div className={props.wide ? "hive-fact hive-fact--wide" : "hive-fact"}>
      <dt className="hive-fact__label">{props.label}</dt>
      <dd className="hive-fact__value">{props.children}</dd>
    </div>
  );
}

function yesNo(t: T, v: boolean) {
  return v ? t("yes") : t("no");
}

/**
 * What a visit found, as facts (stock-card fields only; readings go in one line). The yes/no
 * observations only for a look into the colony (a visit that only left a note says nothing of
 * the queen).
 */
function ColonyFacts(props: { i: Inspection; t: T; tc: TC; fmt: Format }) {
  const { i, t, tc, fmt } = props;
  const check = isColonyCheck(i);
  if (!check && i.weightKg === 0) return null;
  return (
    <dl className="hive-facts-grid">
      {check && (
        <>
          <Fact label={t("queenSeen")}>{yesNo(t, i.queenSeen)}</Fact>
          <Fact label={t("eggsSeen")}>{yesNo(t, i.eggsSeen)}</Fact>
          <Fact label={t("coveredLarva")}>{yesNo(t, i.coveredLarva)}</Fact>
        </>
      )}
      {i.broodFrames > 0 && <Fact label={t("broodFrames")}>{fmt.number(i.broodFrames)}</Fact>}
      {i.frames > 0 && <Fact label={t("frames")}>{fmt.number(i.frames)}</Fact>}
      {i.stores !== 0 && <Fact label={t("stores")}>{label.stores(tc, i.stores)}</Fact>}
      {i.temperament !== 0 && (
        <Fact label={t("temperament")}>{label.temperament(tc, i.temperament)}</Fact>
      )}
      {i.calmness > 0 && <Fact label={t("calmness")}>{fmt.number(i.calmness)}</Fact>}
      {i.queenCells > 0 && <Fact label={t("queenCells")}>{fmt.number(i.queenCells)}</Fact>}
      {i.varroa.trim() !== "" && (
        <Fact label={t("varroa")} wide>
          {i.varroa}
        </Fact>
      )}
      {i.superAdded && <Fact label={t("superAdded")}>{t("yes")}</Fact>}
      {i.weightKg !== 0 && <Fact label={t("weight")}>{fmt.kg(i.weightKg)}</Fact>}
    </dl>
  );
}

/** The measurements of an inspection in one line ("Weight 43.2 kg · In the hive 34.5 °C"). */
function readings(i: Inspection, t: T, fmt: Format, withWeight = true): string {
  const parts: string[] = [];
  if (withWeight && i.weightKg !== 0) parts.push(`${t("weight")} ${fmt.kg(i.weightKg)}`);
  if (i.tempHive !== 0) parts.push(`${t("tempHive")} ${fmt.celsius(i.tempHive)}`);
  if (i.tempOutside !== 0) parts.push(`${t("tempOutside")} ${fmt.celsius(i.tempOutside)}`);
  if (i.humidityHive !== 0) parts.push(`${t("humidityHive")} ${fmt.percent(i.humidityHive)}`);
  if (i.humidityOutside !== 0)
    parts.push(`${t("humidityOutside")} ${fmt.percent(i.humidityOutside)}`);
  if (i.weather.trim() !== "") parts.push(`${t("weather")}: ${i.weather}`);
  return parts.join(" · ");
}

function When(props: { when: Date | undefined; fmt: Format; t: T; now: Date }) {
  return (
    <>
      {props.t("onDate", {
        date: props.fmt.date(props.when),
        when: props.fmt.relativeDays(props.when, props.now),
      })}
    </>
  );
}

/** "Last inspection: 19 Nov 2026 (4 days ago)", the date linking to the inspection. */
function InspectionHeading(props: { title: string; i: Inspection; fmt: Format; t: T; now: Date }) {
  return (
    <h3 className="hive-stock__heading">
      {props.title}
      {": "}
      <Link href={paths.inspection(props.i.id)}>
        <When when={toDate(props.i.date)} fmt={props.fmt} t={props.t} now={props.now} />
      </Link>
    </h3>
  );
}

function StockCard(props: {
  data: HiveData;
  queen: Queen | undefined;
  t: T;
  tc: TC;
  fmt: Format;
  now: Date;
}) {
  const { data, queen, t, tc, fmt, now } = props;
  const latest = data.inspections[0];
  // The last visit of a beekeeper (a scale's readings come between them).
  const lastCheck = data.inspections.find((i) => !isMeasurementOnly(i));
  const latestReadings = latest && readings(latest, t, fmt);
  // The colony check's weight is among its facts already.
  const checkReadings = lastCheck ? readings(lastCheck, t, fmt, false) : "";
  return (
    <Card title={t("stockCard")} className="hive-card hive-stock">
      {latest === undefined ? (
        <p className="hive-stock__none">
          <span className="badge badge--warn">{t("neverInspected")}</span>{" "}
          <span className="muted">{t("notInspected")}</span>
        </p>
      ) : lastCheck === undefined ? (
        <>
          <InspectionHeading title={t("lastInspection")} i={latest} fmt={fmt} t={t} now={now} />
          <p>
            <span className="badge">{t("measurementOnly")}</span> {latestReadings}
          </p>
        </>
      ) : (
        <>
          <InspectionHeading title={t("lastInspection")} i={lastCheck} fmt={fmt} t={t} now={now} />
          <ColonyFacts i={lastCheck} t={t} tc={tc} fmt={fmt} />
          {lastCheck.note.trim() !== "" && <p className="hive-stock__note">{lastCheck.note}</p>}
          {checkReadings !== "" && <p className="muted">{checkReadings}</p>}
          {lastCheck !== latest && latestReadings && (
            <p className="hive-stock__reading">
              <strong>{t("latestReading")}: </strong>
              <Link href={paths.inspection(latest.id)}>
                <When when={toDate(latest.date)} fmt={fmt} t={t} now={now} />
              </Link>
              {" — "}
              {latestReadings}
            </p>
          )}
        </>
      )}

      <div className="hive-stock__queen">
        <h3 className="hive-stock__heading">{t("queen")}</h3>
        <p className="hive-stock__queen-line">
          <QueenMark queen={queen} />
          {queen?.origin && <span>{t("queenOrigin", { origin: queen.origin })}</span>}
          {queen?.breederNumber && (
            <span>{t("queenBreeder", { number: queen.breederNumber })}</span>
          )}
          {queen?.introducedAt && (
            <span>{t("queenIntroduced", { date: fmt.date(queen.introducedAt) })}</span>
          )}
          {queen && (
            <Writable>
              <Link href={paths.editQueen(queen.id)}>{t("editQueen")}</Link>
            </Writable>
          )}
        </p>
      </div>

      <OpenTasks tasks={data.tasks} t={t} now={now} />
    </Card>
  );
}

function OpenTasks(props: { tasks: Task[]; t: T; now: Date }) {
  const { t, now } = props;
  const client = useClient();
  const readOnly = useReadOnly();
  // Tasks ticked done on this visit stay listed (ticked, struck through) so that a slip of the
  // glove is undone by unticking.
  const [doneHere, setDoneHere] = useState<readonly Task[]>([]);
  const mark = (task: Task, done: boolean) =>
    setDoneHere((list) => [...list.filter((x) => x.id !== task.id), ...(done ? [task] : [])]);
  const setDone = useAction(async (task: Task, done: boolean) => {
    mark(task, done); // at once: the tick answers the tap
    try {
      await client.tasks.setTaskDone({ id: task.id, done });
    } catch (err) {
      mark(task, !done);
      throw err;
    }
  });
  const rows = tasksWithDoneHere(props.tasks, doneHere);
  return (
    <div className="hive-stock__tasks">
      <h3 className="hive-stock__heading">{t("openTasks")}</h3>
      {rows.length === 0 ? (
        <p className="muted">{t("noTasks")}</p>
      ) : (
        <ul className="list">
          {rows.map(({ task, done }) => (
            <TaskRow
              key={task.id}
              task={task}
              done={done}
              now={now}
              showTarget={false}
              onDone={readOnly ? undefined : (d) => void setDone.run(task, d)}
            />
          ))}
        </ul>
      )}
      <ErrorNote error={setDone.error} />
    </div>
  );
}

/** The first rows of a list and a button to show the rest. */
function useShowAll<X>(rows: readonly X[]): { shown: readonly X[]; more: ReactNode } {
  const t = useMessages(hiveMessages);
  const [all, setAll] = useState(false);
  if (all || rows.length <= firstRows) return { shown: rows, more: null };
  return {
    shown: rows.slice(0, firstRows),
    more: (
      <button
        type="button"
        className="button button--secondary button--small"
        onClick={() => setAll(true)}
      >
        {t("showAll", { count: rows.length })}
      </button>
    ),
  };
}

function InspectionsCard(props: {
  inspections: Inspection[];
  t: T;
  tc: TC;
  fmt: Format;
  now: Date;
}) {
  const { inspections, t, tc, fmt } = props;
  const { shown, more } = useShowAll(inspections);
  return (
    <Card title={t("inspections")} className="hive-card">
      {inspections.length === 0 ? (
        <Empty>{t("noInspections")}</Empty>
      ) : (
        <ul className="list">
          {shown.map((i) => (
            <li key={i.id} className="list__item">
              <Link href={paths.inspection(i.id)} className="list__link list__stack">
                <span className="list__title">{fmt.dateTime(i.date)}</span>
                <span className="list__meta">{inspectionSummary(i, t, tc, fmt)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {more}
    </Card>
  );
}

/** A few words on an inspection for its row in the history. */
function inspectionSummary(i: Inspection, t: T, tc: TC, fmt: Format): string {
  const parts: string[] = [];
  if (isMeasurementOnly(i)) {
    parts.push(t("measurementOnly"));
  } else {
    if (i.queenSeen) parts.push(t("queenSeen"));
    if (i.eggsSeen) parts.push(t("eggsSeen"));
    if (i.broodFrames > 0) parts.push(`${t("broodFrames")} ${fmt.number(i.broodFrames)}`);
    if (i.stores !== 0) parts.push(`${t("stores")}: ${label.stores(tc, i.stores)}`);
  }
  if (i.weightKg !== 0) parts.push(fmt.kg(i.weightKg));
  return parts.join(" · ");
}

function TreatmentsCard(props: { treatments: Treatment[]; t: T; now: Date }) {
  const { treatments, t, now } = props;
  const { shown, more } = useShowAll(treatments);
  return (
    <Card title={t("treatments")} className="hive-card">
      {treatments.length === 0 ? (
        <Empty>{t("noTreatments")}</Empty>
      ) : (
        <ul className="list">
          {shown.map((x) => (
            <TreatmentRow key={x.id} treatment={x} now={now} />
          ))}
        </ul>
      )}
      {more}
    </Card>
  );
}

function HarvestsCard(props: { harvests: Harvest[]; t: T; fmt: Format }) {
  const { harvests, t, fmt } = props;
  const client = useClient();
  const { shown, more } = useShowAll(harvests);
  const remove = useAction((id: string) => client.harvests.deleteHarvest({ id }));
  const total = harvests.reduce((sum, x) => sum + x.amountKg, 0);
  return (
    <Card title={t("harvests")} className="hive-card">
      {harvests.length === 0 ? (
        <Empty>{t("noHarvests")}</Empty>
      ) : (
        <>
          <p className="muted">{t("harvestTotal", { kg: fmt.kg(total) })}</p>
          <ul className="list">
            {shown.map((x) => (
              <HarvestRow
                key={x.id}
                harvest={x}
                actions={
                  <Writable>
                    <ConfirmButton
                      label={t("deleteHarvest")}
                      confirm={t("deleteHarvestConfirm")}
                      onConfirm={() => void remove.run(x.id)}
                      disabled={remove.busy}
                    />
                  </Writable>
                }
              />
            ))}
          </ul>
        </>
      )}
      {more}
      <ErrorNote error={remove.error} />
    </Card>
  );
}

function PlacementsCard(props: {
  stays: Stay[];
  apiaryName: (id: string) => string;
  t: T;
  fmt: Format;
}) {
  const { stays, apiaryName, t, fmt } = props;
  return (
    <Card title={t("placements")} className="hive-card">
      {stays.length === 0 ? (
        <Empty>{t("noPlacements")}</Empty>
      ) : (
        <ol className="list">
          {stays.map((s) => (
            <li key={`${s.apiaryId}-${s.from?.getTime() ?? "start"}`} className="list__item">
              <div className="list__row list__stack">
                <span className="list__head">
                  <Link href={paths.apiary(s.apiaryId)} className="list__title">
                    {apiaryName(s.apiaryId)}
                  </Link>
                  {s.until === undefined && <span className="badge badge--ok">{t("current")}</span>}
                </span>
                <span className="list__meta">
                  {s.until === undefined
                    ? t("since", { date: fmt.date(s.from) })
                    : s.from === undefined
                      ? t("until", { date: fmt.date(s.until) })
                      : t("fromTo", { from: fmt.date(s.from), to: fmt.date(s.until) })}
                </span>
              </div>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}

function TimelineCard(props: {
  data: HiveData;
  apiaryName: (id: string) => string;
  t: T;
  tc: TC;
  fmt: Format;
}) {
  const { data, apiaryName, t, tc, fmt } = props;
  const { shown, more } = useShowAll(data.events);
  const queens = new Map(data.queens.map((q) => [q.id, q]));
  const treatments = new Map(data.treatments.map((x) => [x.id, x]));
  const inspections = new Map(data.inspections.map((x) => [x.id, x]));
  const harvests = new Map(data.harvests.map((x) => [x.id, x]));

  const detail = (e: Event): ReactNode => {
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
          <Link href={paths.inspection(e.refId)}>
            {(i && inspectionSummary(i, t, tc, fmt)) ||
              t("openInspection", { date: fmt.date(e.date) })}
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
      case EventType.DISSOLVED: {
        const change = statusChange(e.detailJson);
        return change
          ? `${label.hiveStatus(tc, change.from as HiveStatus)} → ${label.hiveStatus(tc, change.to as HiveStatus)}`
          : null;
      }
      default:
        return null;
    }
  };

  return (
    <Card title={t("timeline")} className="hive-card">
      {data.events.length === 0 ? (
        <Empty>{t("noEvents")}</Empty>
      ) : (
        <ol className="list hive-timeline">
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
      {more}
    </Card>
  );
}
