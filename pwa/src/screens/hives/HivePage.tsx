/**
 * One hive (`/hives/:id`): its weight alerts, the stock card (last visit, reigning queen,
 * withdrawal periods, open tasks), the big "Inspect" action and the others, then its visits,
 * treatments, harvests, where it stood, its event timeline, and its scale's readings (latest
 * values, last contact, charts). Reads only the replica, in one
 * live query (queries.ts `useHivePage`); the sections are in `page/`.
 */
import "./hive-page.css";
import { lazy, Suspense } from "react";
import { Link, useLocation, useParams } from "wouter";
import { useClient, useReadOnly } from "../../app/client.tsx";
import { useNow } from "../../app/now.tsx";
import { paths } from "../../app/paths.ts";
import { useFormat } from "../../format.ts";
import { useMessages } from "../../i18n.ts";
import { AlertNotice } from "../../ui/alerts.tsx";
import { commonMessages, label } from "../../ui/messages.ts";
import {
  Card,
  ConfirmButton,
  ErrorNote,
  LiveView,
  Loading,
  Page,
  useAction,
  Writable,
} from "../../ui/page.tsx";
import { placementHistory, reigningQueen, runningWithdrawals } from "./hive-logic.ts";
import { hiveMessages } from "./messages.ts";
import { LatestReadings } from "./page/LatestReadings.tsx";
import {
  HarvestsCard,
  InspectionsCard,
  PlacementsCard,
  TreatmentsCard,
} from "./page/RecordCards.tsx";
import { StockCard } from "./page/StockCard.tsx";
import { TimelineCard } from "./page/TimelineCard.tsx";
import { HiveStatusBadge } from "./parts.tsx";
import { type HivePageData, useHivePage } from "./queries.ts";

const HiveCharts = lazy(() => import("./HiveCharts.tsx"));

export default function HivePage() {
  const { id } = useParams<{ id: string }>();
  return (
    <LiveView live={useHivePage(id)} back={paths.hives}>
      {(data) => <HiveView data={data} />}
    </LiveView>
  );
}

function HiveView({ data }: { data: HivePageData }) {
  const t = useMessages(hiveMessages);
  const tc = useMessages(commonMessages);
  const fmt = useFormat();
  const now = useNow();
  const client = useClient();
  const [, navigate] = useLocation();
  const readOnly = useReadOnly();
  const { hive: h } = data;
  // Deleted on another device: shown as it was, its records reachable, nothing to write to it.
  const removed = data.deleted !== undefined;
  const deletedAt = data.deleted?.at ? new Date(data.deleted.at) : now;
  const apiaryName = (apiaryId: string) => data.apiaryNames.get(apiaryId) ?? t("unknownApiary");
  const withdrawals = runningWithdrawals(data.treatments, now);
  const remove = useAction(async () => {
    await client.hives.deleteHive({ id: h.id });
    navigate(paths.hives, { replace: true });
  });

  return (
    <Page title={h.name} back={paths.hives}>
      <p className="hive-facts">
        {!removed && <HiveStatusBadge status={h.status} />}
        <Link href={paths.apiary(h.apiaryId)} className="tap-link">
          {apiaryName(h.apiaryId)}
        </Link>
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
      {removed && (
        <p className="notice notice--warn" role="status" data-testid="hive-deleted-elsewhere">
          <strong>
            {t(data.deleted?.elsewhere ? "deletedElsewhere" : "deletedHere", {
              when: data.deleted?.at ? fmt.dateTime(new Date(data.deleted.at)) : "—",
            })}
          </strong>{" "}
          {t("deletedElsewhereKept")}
        </p>
      )}

      {data.alerts.map((a) => (
        <AlertNotice key={`${a.kind}-${a.at}`} alert={a} />
      ))}
      {withdrawals.map((w) => (
        <p key={w.id} className="notice notice--warn hive-withdrawal" role="status">
          <strong>
            {t("withdrawalWarn", { product: w.product, date: fmt.date(w.withdrawalUntil) })}
          </strong>
        </p>
      ))}

      <div className="hive-top">
        <Writable>
          {!removed && (
            <Link
              href={paths.inspect(h.id)}
              className="button button--primary button--big hive-actions__inspect"
            >
              {t("inspect")}
            </Link>
          )}
        </Writable>
        <StockCard data={data} queen={reigningQueen(data.queens)} />
        {!removed && (
          <Writable>
            <MoreActions hiveId={h.id} />
          </Writable>
        )}
      </div>

      <div className="grid hive-sections">
        <InspectionsCard inspections={data.visits} />
        <TreatmentsCard treatments={data.treatments} />
        <HarvestsCard harvests={data.harvests} treatments={data.treatments} />
        <PlacementsCard
          stays={placementHistory(data.events, removed ? deletedAt : undefined)}
          apiaryName={apiaryName}
        />
      </div>
      <TimelineCard data={data} apiaryName={apiaryName} />
      <LatestReadings readings={data.readings} />
      <Suspense fallback={<Loading />}>
        <HiveCharts hiveId={h.id} readings={data.measurements} />
      </Suspense>

      {!readOnly && !removed && (
        <Card className="hive-card">
          <ConfirmButton
            label={t("deleteHive")}
            confirm={t("deleteHiveConfirm")}
            confirmLabel={t("deleteHive")}
            keepLabel={tc("keep")}
            onConfirm={() => void remove.run()}
            disabled={remove.busy}
          />
          <ErrorNote error={remove.error} />
        </Card>
      )}
    </Page>
  );
}

/** Everything else one does to a hive: a queen, a treatment, a harvest, a task, edit, move. */
function MoreActions({ hiveId }: { hiveId: string }) {
  const t = useMessages(hiveMessages);
  return (
    <nav className="hive-actions__more" aria-label={t("moreActions")}>
      <Link href={paths.newQueen(hiveId)} className="button button--secondary">
        {t("newQueen")}
      </Link>
      <Link href={paths.newTreatment(hiveId)} className="button button--secondary">
        {t("newTreatment")}
      </Link>
      <Link href={paths.newHarvest(hiveId)} className="button button--secondary">
        {t("newHarvest")}
      </Link>
      <Link href={paths.newTask({ hive: hiveId })} className="button button--secondary">
        {t("newTask")}
      </Link>
      <Link href={paths.editHive(hiveId)} className="button button--secondary">
        {t("edit")}
      </Link>
      <Link href={paths.relocateHive(hiveId)} className="button button--secondary">
        {t("relocate")}
      </Link>
    </nav>
  );
}
