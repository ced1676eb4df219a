/**
 * Rows for a hive's treatments and harvests (the hive page lists them with these):
 *
 *   <ul className="list">{treatments.map((t) => <TreatmentRow key={t.id} treatment={t} />)}</ul>
 *   <ul className="list">{harvests.map((h) => <HarvestRow key={h.id} harvest={h}
 *     actions={<ConfirmButton … />} />)}</ul>
 *
 * A running withdrawal period is said in words ("Withdrawal period until 12 Apr 2026"), not only
 * by colour.
 */
import "./record-rows.css";
import type { Harvest, Treatment } from "@hivekeep/proto";
import type { ReactNode } from "react";
import { Link } from "wouter";
import { useNow } from "../../app/now.tsx";
import { paths } from "../../app/paths.ts";
import { useFormat } from "../../format.ts";
import { useMessages } from "../../i18n.ts";
import { commonMessages } from "../../ui/messages.ts";
import { changeMessages } from "./change-messages.ts";
import { recordMessages } from "./messages.ts";
import { withdrawalRunning } from "./rules.ts";

export function TreatmentRow(props: {
  readonly treatment: Treatment;
  /** Offer its edit (where it is also deleted); not in a read-only session. */
  readonly editable?: boolean;
}) {
  const t = useMessages(recordMessages);
  const tx = useMessages(changeMessages);
  const tc = useMessages(commonMessages);
  const fmt = useFormat();
  const now = useNow();
  const x = props.treatment;
  const running = withdrawalRunning(x, now);
  const detail = (label: string, value: string) =>
    value && <span>{`${label}${tc("labelSeparator")}${value}`}</span>;
  // The date never breaks over two lines ("Dec 13, 2026").
  const wholeDate = fmt.date(x.withdrawalUntil).replaceAll(" ", "\u00a0");
  return (
    <li className={`list__item${running ? " records-treatment--running" : ""}`}>
      <div className="list__row list__stack">
        <span className="list__head">
          <span className="list__title">{x.product}</span>
          <span>{fmt.date(x.date)}</span>
        </span>
        {x.withdrawalUntil && (
          <span className={`records-withdrawal-badge ${running ? "badge badge--bad" : "badge"}`}>
            {running
              ? t("withdrawalUntil", { date: wholeDate })
              : t("withdrawalOver", { date: wholeDate })}
          </span>
        )}
        <span className="list__meta">
          {detail(t("activeIngredient"), x.activeIngredient)}
          {detail(t("dose"), x.dose)}
          {detail(t("method"), x.method)}
          {detail(t("reason"), x.reason)}
          {x.batchNumber && <span>{t("batch", { value: x.batchNumber })}</span>}
          {detail(t("supplier"), x.supplier)}
        </span>
        {props.editable && (
          <Link
            href={paths.editTreatment(x.id)}
            className="button button--secondary"
            aria-label={`${tx("editTreatment")}: ${x.product}, ${fmt.date(x.date)}`}
          >
            {tx("editTreatment")}
          </Link>
        )}
      </div>
    </li>
  );
}

export function HarvestRow(props: {
  readonly harvest: Harvest;
  readonly actions?: ReactNode;
  /** The treatment whose withdrawal period covers the harvest's date (core's harvestWithdrawal). */
  readonly withdrawal?: Treatment;
}) {
  const t = useMessages(recordMessages);
  const fmt = useFormat();
  const h = props.harvest;
  const w = props.withdrawal;
  return (
    <li className="list__item">
      <div className="list__row list__stack">
        <span className="list__head">
          <span className="list__title">
            {fmt.kg(h.amountKg)} {h.variety || t("honey")}
          </span>
          <span>{fmt.date(h.date)}</span>
        </span>
        {w && (
          <span
            className="badge badge--bad records-in-withdrawal"
            data-testid="harvest-in-withdrawal"
          >
            {t("inWithdrawal", { date: fmt.date(w.withdrawalUntil) })} · {w.product}
          </span>
        )}
        <span className="list__meta">
          {h.waterContent > 0 && (
            // A refractometer reads tenths: 17.6 % is not 18 %.
            <span>{t("water", { value: `${fmt.number(h.waterContent)}\u00a0%` })}</span>
          )}
          {h.batchNumber && <span>{t("batch", { value: h.batchNumber })}</span>}
          {h.bestBefore && <span>{t("bestBeforeOn", { date: fmt.date(h.bestBefore) })}</span>}
          {h.note && <span>{h.note}</span>}
        </span>
        {props.actions}
      </div>
    </li>
  );
}
