/**
 * One inspection (`/inspections/:id`, a link that works offline): what was recorded and nothing
 * else (a field left at "not set" is not shown), the hive, its apiary and queen as of that date,
 * and the photos (tap to see one large; add or remove them).
 */
import "./inspection-page.css";
import { Stores, Temperament } from "@hivekeep/proto";
import { Link, useLocation, useParams } from "wouter";
import { useClient, useReadOnly } from "../../app/client.tsx";
import { paths } from "../../app/paths.ts";
import { useFormat } from "../../format.ts";
import { useMessages } from "../../i18n.ts";
import { Fact } from "../../ui/facts.tsx";
import { commonMessages, label } from "../../ui/messages.ts";
import {
  Card,
  ConfirmButton,
  ErrorNote,
  LiveView,
  MarkingDot,
  Page,
  useAction,
  Writable,
} from "../../ui/page.tsx";
import { calmnessRange, hasMeasurements, isColonyCheck } from "./fields.ts";
import { Photos } from "./InspectionPhotos.tsx";
import { inspectionMessages } from "./messages.ts";
import { enteredLater, type Reading, readingsOf, readingValue } from "./present.ts";
import { type InspectionPageData, useInspectionPage } from "./queries.ts";

export default function InspectionPage() {
  const { id } = useParams<{ id: string }>();
  return (
    <LiveView live={useInspectionPage(id)} back={paths.hives}>
      {(data) => <Details {...data} />}
    </LiveView>
  );
}

/** Each reading's term on this page. */
const readingTerm = {
  weight: { hive: "weight", outside: "weight" },
  temperature: { hive: "tempHive", outside: "tempOutside" },
  humidity: { hive: "humidityHive", outside: "humidityOutside" },
} as const satisfies Record<Reading["kind"], Record<Reading["place"], string>>;

function Details({ inspection: i, hive, apiary, queen, deleted }: InspectionPageData) {
  const t = useMessages(inspectionMessages);
  const tc = useMessages(commonMessages);
  const fmt = useFormat();
  // A deleted inspection (issue 25) is shown as it was, with nothing to write to it.
  const readOnly = useReadOnly() || deleted !== undefined;

  // Entered long after the visit (back-dated): say when it was written down.
  const entered = enteredLater(i);
  const title = hive ? t("pageTitle", { hive: hive.name }) : t("pageTitleNoHive");
  const yesNo = (v: boolean) => (
    <span className={v ? "badge badge--ok" : "badge"}>{v ? t("yes") : t("no")}</span>
  );
  const count = (n: number) => (n > 0 ? fmt.number(n, 0) : undefined);
  const colonyCheck = isColonyCheck(i);
  const measured = hasMeasurements(i);

  return (
    <Page
      title={title}
      back={hive ? paths.hive(hive.id) : paths.hives}
      actions={
        !deleted && (
          <Writable>
            <Link href={paths.editInspection(i.id)} className="button button--secondary">
              {t("edit")}
            </Link>
          </Writable>
        )
      }
    >
      {deleted && (
        <p className="notice notice--warn" role="status">
          <strong>
            {t(deleted.elsewhere ? "deletedElsewhere" : "deletedHere", {
              when: deleted.at ? fmt.dateTime(new Date(deleted.at)) : "—",
            })}
          </strong>
        </p>
      )}
      <Card>
        <p className="inspection__date">{fmt.dateTime(i.date)}</p>
        {entered && <p className="muted">{t("enteredAt", { when: fmt.dateTime(entered) })}</p>}
        <dl className="facts">
          <Fact term={t("hive")}>
            {hive ? (
              <Link href={paths.hive(hive.id)} className="tap-link">
                {hive.name}
              </Link>
            ) : (
              t("deletedHive")
            )}
          </Fact>
          <Fact term={t("apiary")}>
            {apiary ? (
              <Link href={paths.apiary(apiary.id)} className="tap-link">
                {apiary.name}
              </Link>
            ) : i.apiaryId ? (
              t("deletedApiary")
            ) : undefined}
          </Fact>
          <Fact term={t("queen")} wide>
            {queen ? (
              <span className="inspection__queen">
                <MarkingDot marking={queen.marking} />
                {t("queenYear", { year: queen.year })}
                {queen.marking ? ` · ${label.marking(tc, queen.marking)}` : ""}
                {queen.origin ? ` · ${queen.origin}` : ""}
              </span>
            ) : (
              <span className="muted">{t("noQueen")}</span>
            )}
          </Fact>
        </dl>
      </Card>

      {colonyCheck && (
        <Card title={t("colony")}>
          <dl className="facts">
            <Fact term={t("queenSeen")}>{yesNo(i.queenSeen)}</Fact>
            <Fact term={t("eggsSeen")}>{yesNo(i.eggsSeen)}</Fact>
            <Fact term={t("coveredLarva")}>{yesNo(i.coveredLarva)}</Fact>
            <Fact term={t("superAdded")}>{yesNo(i.superAdded)}</Fact>
            <Fact term={t("frames")}>{count(i.frames)}</Fact>
            <Fact term={t("broodFrames")}>{count(i.broodFrames)}</Fact>
            <Fact term={t("queenCells")}>{count(i.queenCells)}</Fact>
            <Fact term={t("calmness")}>
              {i.calmness > 0
                ? i.calmness <= calmnessRange.max
                  ? t("calmnessValue", { value: i.calmness })
                  : fmt.number(i.calmness, 0)
                : undefined}
            </Fact>
            <Fact term={t("stores")}>
              {i.stores !== Stores.UNSPECIFIED ? label.stores(tc, i.stores) : undefined}
            </Fact>
            <Fact term={t("temperament")}>
              {i.temperament !== Temperament.UNSPECIFIED
                ? label.temperament(tc, i.temperament)
                : undefined}
            </Fact>
            <Fact term={t("varroa")} wide>
              {i.varroa || undefined}
            </Fact>
          </dl>
        </Card>
      )}

      {measured && (
        <Card title={t("measurements")}>
          <dl className="facts">
            {readingsOf(i).map((r) => (
              <Fact key={`${r.kind}-${r.place}`} term={t(readingTerm[r.kind][r.place])}>
                {readingValue(fmt, r)}
              </Fact>
            ))}
            <Fact term={t("weather")} wide>
              {i.weather || undefined}
            </Fact>
          </dl>
        </Card>
      )}

      {i.note && (
        <Card title={t("note")}>
          <p className="inspection__note">{i.note}</p>
        </Card>
      )}

      {!colonyCheck && !measured && !i.note && <p className="muted">{t("notRecorded")}</p>}

      <Photos inspection={i} readOnly={readOnly} />
      {!deleted && (
        <Writable>
          <DeleteInspection inspection={i} />
        </Writable>
      )}
    </Page>
  );
}

/** Delete, confirmed with its consequence; then back to the hive's page, where it was listed. */
function DeleteInspection({ inspection: i }: { inspection: InspectionPageData["inspection"] }) {
  const t = useMessages(inspectionMessages);
  const tc = useMessages(commonMessages);
  const fmt = useFormat();
  const client = useClient();
  const [, navigate] = useLocation();
  const remove = useAction(async () => {
    await client.inspections.deleteInspection({ id: i.id });
    navigate(paths.hive(i.hiveId), { replace: true });
  });
  return (
    <Card className="inspection-delete">
      <ConfirmButton
        label={t("deleteInspection")}
        confirm={t("deleteConfirm", { date: fmt.date(i.date) })}
        confirmLabel={t("deleteInspection")}
        keepLabel={tc("keep")}
        onConfirm={() => void remove.run()}
        disabled={remove.busy}
      />
      <ErrorNote error={remove.error} />
    </Card>
  );
}
