/** The hive page's record sections: inspections, treatments, harvests and where it stood. */
import { harvestWithdrawal } from "@hivekeep/client-core/core";
import type { Harvest, Inspection, Treatment } from "@hivekeep/proto";
import { Link } from "wouter";
import { useClient, useReadOnly } from "../../../app/client.tsx";
import { paths } from "../../../app/paths.ts";
import { Card, ConfirmButton, Empty, ErrorNote, useAction, Writable } from "../../../ui/page.tsx";
import { HarvestRow, TreatmentRow } from "../../records/RecordRows.tsx";
import type { Stay } from "../hive-logic.ts";
import { useSectionRows, useWords } from "../parts.tsx";
import { inspectionSummary, stayText } from "../present.ts";

export function InspectionsCard(props: { readonly inspections: readonly Inspection[] }) {
  const words = useWords();
  const { t, fmt } = words;
  const { inspections } = props;
  const { shown, listId, toggle } = useSectionRows(inspections);
  return (
    <Card title={t("inspections")} className="hive-card">
      {inspections.length === 0 ? (
        <Empty>{t("noInspections")}</Empty>
      ) : (
        <ul className="list" id={listId}>
          {shown.map((i) => (
            <li key={i.id} className="list__item">
              <Link href={paths.inspection(i.id)} className="list__link list__stack">
                <span className="list__title">{fmt.dateTime(i.date)}</span>
                <span className="list__meta">{inspectionSummary(i, words)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {toggle}
    </Card>
  );
}

export function TreatmentsCard(props: { readonly treatments: readonly Treatment[] }) {
  const { t } = useWords();
  const readOnly = useReadOnly();
  const { treatments } = props;
  const { shown, listId, toggle } = useSectionRows(treatments);
  return (
    <Card title={t("treatments")} className="hive-card">
      {treatments.length === 0 ? (
        <Empty>{t("noTreatments")}</Empty>
      ) : (
        <ul className="list" id={listId}>
          {shown.map((x) => (
            <TreatmentRow key={x.id} treatment={x} editable={!readOnly} />
          ))}
        </ul>
      )}
      {toggle}
    </Card>
  );
}

export function HarvestsCard(props: {
  readonly harvests: readonly Harvest[];
  /** The hive's treatments: a harvest inside a withdrawal period is marked (issue 26). */
  readonly treatments?: readonly Treatment[];
}) {
  const { t, tc, fmt } = useWords();
  const client = useClient();
  const { harvests } = props;
  const { shown, listId, toggle } = useSectionRows(harvests);
  const remove = useAction((id: string) => client.harvests.deleteHarvest({ id }));
  const total = harvests.reduce((sum, x) => sum + x.amountKg, 0);
  return (
    <Card title={t("harvests")} className="hive-card">
      {harvests.length === 0 ? (
        <Empty>{t("noHarvests")}</Empty>
      ) : (
        <>
          <p className="muted">{t("harvestTotal", { kg: fmt.kg(total) })}</p>
          <ul className="list" id={listId}>
            {shown.map((x) => (
              <HarvestRow
                key={x.id}
                harvest={x}
                withdrawal={harvestWithdrawal(x, props.treatments ?? [])}
                actions={
                  <Writable>
                    <ConfirmButton
                      label={t("deleteHarvest")}
                      ariaLabel={`${t("deleteHarvest")}: ${fmt.kg(x.amountKg)}, ${fmt.date(x.date)}`}
                      confirm={t("deleteHarvestConfirm", { kg: fmt.kg(x.amountKg) })}
                      confirmLabel={t("deleteHarvest")}
                      keepLabel={tc("keep")}
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
      {toggle}
      <ErrorNote error={remove.error} />
    </Card>
  );
}

export function PlacementsCard(props: {
  readonly stays: readonly Stay[];
  readonly apiaryName: (id: string) => string;
}) {
  const words = useWords();
  const { t } = words;
  const { stays, apiaryName } = props;
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
                  <Link href={paths.apiary(s.apiaryId)} className="list__title tap-link">
                    {apiaryName(s.apiaryId)}
                  </Link>
                  {s.until === undefined && <span className="badge badge--ok">{t("current")}</span>}
                </span>
                <span className="list__meta">{stayText(s, words)}</span>
              </div>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}
