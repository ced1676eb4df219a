/**
 * The hive page's stock card: the last look into the colony (a scale's readings are shown
 * with the charts), the reigning queen and the open tasks.
 */
import type { Inspection, Queen } from "@hivekeep/proto";
import { Link } from "wouter";
import { useNow } from "../../../app/now.tsx";
import { paths } from "../../../app/paths.ts";
import { toDate } from "../../../format.ts";
import { useMessages } from "../../../i18n.ts";
import { Fact } from "../../../ui/facts.tsx";
import { label } from "../../../ui/messages.ts";
import { Card, Writable } from "../../../ui/page.tsx";
import { isColonyCheck } from "../../inspections/fields.ts";
import { printMessages } from "../../print/messages.ts";
import { QueenMark, useWords } from "../parts.tsx";
import { onDate, readingsLine } from "../present.ts";
import type { HivePageData } from "../queries.ts";
import { OpenTasks } from "./OpenTasks.tsx";

export function StockCard(props: {
  readonly data: HivePageData;
  readonly queen: Queen | undefined;
}) {
  const words = useWords();
  const tp = useMessages(printMessages);
  const { t } = words;
  const now = useNow();
  const { data, queen } = props;
  // The last visit of a beekeeper (a scale's readings are shown with the charts).
  const lastCheck = data.visits[0];
  // The colony check's weight is among its facts already.
  const checkReadings = lastCheck ? readingsLine(lastCheck, words, { withWeight: false }) : "";
  const when = (i: Inspection) => onDate(toDate(i.date), now, words);
  return (
    <Card title={t("stockCard")} className="hive-card hive-stock">
      {lastCheck === undefined ? (
        <p className="hive-stock__none">
          <span className="badge badge--warn">{t("neverInspected")}</span>{" "}
          <span className="muted">{t("notInspected")}</span>
        </p>
      ) : (
        <>
          <InspectionHeading
            title={t("lastInspection")}
            separator={words.tc("labelSeparator")}
            i={lastCheck}
            when={when(lastCheck)}
          />
          <ColonyFacts i={lastCheck} />
          {lastCheck.note.trim() !== "" && <p className="hive-stock__note">{lastCheck.note}</p>}
          {checkReadings !== "" && <p className="muted">{checkReadings}</p>}
        </>
      )}
      <QueenLine queen={queen} />
      <OpenTasks tasks={data.tasks} />
      <p className="hive-stock__print">
        <Link href={paths.stockCard(data.hive.id)} className="tap-link">
          {tp("stockCardLink")}
        </Link>
      </p>
    </Card>
  );
}

/** "Last inspection: 19 Nov 2026 (4 days ago)", the date linking to the inspection. */
function InspectionHeading(props: {
  title: string;
  separator: string;
  i: Inspection;
  when: string;
}) {
  return (
    <h3 className="hive-stock__heading">
      {props.title}
      {props.separator}
      <Link href={paths.inspection(props.i.id)}>{props.when}</Link>
    </h3>
  );
}

/**
 * What a visit found, as facts (stock-card fields only; readings go in one line). The yes/no
 * observations only for a look into the colony (a visit that only left a note says nothing of
 * the queen).
 */
function ColonyFacts({ i }: { i: Inspection }) {
  const { t, tc, fmt } = useWords();
  const check = isColonyCheck(i);
  if (!check && i.weightKg === 0) return null;
  const yesNo = (v: boolean) => (v ? t("yes") : t("no"));
  return (
    <dl className="hive-facts-grid">
      {check && (
        <>
          <Fact term={t("queenSeen")}>{yesNo(i.queenSeen)}</Fact>
          <Fact term={t("eggsSeen")}>{yesNo(i.eggsSeen)}</Fact>
          <Fact term={t("coveredLarva")}>{yesNo(i.coveredLarva)}</Fact>
        </>
      )}
      {i.broodFrames > 0 && <Fact term={t("broodFrames")}>{fmt.number(i.broodFrames)}</Fact>}
      {i.frames > 0 && <Fact term={t("frames")}>{fmt.number(i.frames)}</Fact>}
      {i.stores !== 0 && <Fact term={t("stores")}>{label.stores(tc, i.stores)}</Fact>}
      {i.temperament !== 0 && (
        <Fact term={t("temperament")}>{label.temperament(tc, i.temperament)}</Fact>
      )}
      {i.calmness > 0 && <Fact term={t("calmness")}>{fmt.number(i.calmness)}</Fact>}
      {i.queenCells > 0 && <Fact term={t("queenCells")}>{fmt.number(i.queenCells)}</Fact>}
      {i.varroa.trim() !== "" && (
        <Fact term={t("varroa")} wide>
          {i.varroa}
        </Fact>
      )}
      {i.superAdded && <Fact term={t("superAdded")}>{t("yes")}</Fact>}
      {i.weightKg !== 0 && <Fact term={t("weight")}>{fmt.kg(i.weightKg)}</Fact>}
    </dl>
  );
}

/** The reigning queen: her mark, origin, breeder number, when she came, and a way to edit her. */
function QueenLine({ queen }: { queen: Queen | undefined }) {
  const { t, fmt } = useWords();
  return (
    <div className="hive-stock__queen">
      <h3 className="hive-stock__heading">{t("queen")}</h3>
      <p className="hive-stock__queen-line">
        <QueenMark queen={queen} />
        {queen?.origin && <span>{t("queenOrigin", { origin: queen.origin })}</span>}
        {queen?.breederNumber && <span>{t("queenBreeder", { number: queen.breederNumber })}</span>}
        {queen?.introducedAt && (
          <span>{t("queenIntroduced", { date: fmt.date(queen.introducedAt) })}</span>
        )}
        {queen && (
          <Writable>
            <Link href={paths.editQueen(queen.id)} className="tap-link">
              {t("editQueen")}
            </Link>
          </Writable>
        )}
      </p>
    </div>
  );
}
