/**
 * Rows for a hive's treatments and harvests, for the hive page (or any list of them):
 *
 *   <ul className="list">{treatments.map((t) => <TreatmentRow key={t.id} treatment={t} />)}</ul>
 *   <ul className="list">{harvests.map((h) => <HarvestRow key={h.id} harvest={h}
 *     actions={<ConfirmButton … />} />)}</ul>
 *
 * A running withdrawal period is said in words ("Withdrawal until 12 Apr 2026"), not only by
 * colour.
 */
import type { Harvest, Treatment } from "@hivekeep/proto";
import type { ReactNode } from "react";
import { useFormat } from "../../format.ts";
import { useMessages } from "../../i18n.ts";
import { recordMessages } from "./messages.ts";
import { withdrawalRunning } from "./rules.ts";

/** "Withdrawal until …" while it runs, "Withdrawal ended …" after; nothing without one. */
export function WithdrawalBadge(props: {
  readonly treatment: Pick<Treatment, "withdrawalUntil">;
  readonly now?: Date;
}) {
  const t = useMessages(recordMessages);
  const fmt = useFormat();
  const until = props.treatment.withdrawalUntil;
  if (until === undefined) return null;
  return withdrawalRunning(props.treatment, props.now ?? new Date()) ? (
    <span className="badge badge--warn">
      <span aria-hidden="true">⏳ </span>
      {t("withdrawalUntil", { date: fmt.date(until) })}
    </span>
  ) : (
    <span>{t("withdrawalOver", { date: fmt.date(until) })}</span>
  );
}

export function TreatmentRow(props: { readonly treatment: Treatment; readonly now?: Date }) {
  const fmt = useFormat();
  const x = props.treatment;
  const details = [x.activeIngredient, x.dose, x.method, x.reason].filter((s) => s !== "");
  return (
    <li className="list__item">
      <div className="list__row">
        <span className="list__title">{x.product}</span>
        <span className="list__meta">
          <span>{fmt.date(x.date)}</span>
          {details.length > 0 && <span>{details.join(" · ")}</span>}
          <WithdrawalBadge treatment={x} {...(props.now ? { now: props.now } : {})} />
        </span>
      </div>
    </li>
  );
}

export function HarvestRow(props: { readonly harvest: Harvest; readonly actions?: ReactNode }) {
  const t = useMessages(recordMessages);
  const fmt = useFormat();
  const h = props.harvest;
  return (
    <li className="list__item">
      <div className="list__row">
        <span className="list__title">
          {fmt.kg(h.amountKg)}
          {h.variety && ` ${h.variety}`}
        </span>
        <span className="list__meta">
          <span>{fmt.date(h.date)}</span>
          {h.waterContent > 0 && (
            <span>{t("water", { value: `${fmt.number(h.waterContent)} %` })}</span>
          )}
          {h.batchNumber && <span>{t("batch", { value: h.batchNumber })}</span>}
          {h.bestBefore && <span>{t("bestBeforeShort", { date: fmt.date(h.bestBefore) })}</span>}
        </span>
        {props.actions}
      </div>
      {h.note && <p className="muted records-row__note">{h.note}</p>}
    </li>
  );
}
