/**
 * A harvest of a hive (`/hives/:id/harvest`). The amount must be above 0 (the service refuses
 * anything else). A withdrawal period running at the harvest date is shown as a warning: the
 * harvest is still recorded, as it happened.
 */
import { columnSpec } from "@hivekeep/client-core/core";
import "./harvest-form.css";
import type { Hive, Treatment } from "@hivekeep/proto";
import { useState } from "react";
import { useLocation, useParams } from "wouter";
import { useClient } from "../../app/client.tsx";
import { useNow } from "../../app/now.tsx";
import { paths } from "../../app/paths.ts";
import { toTimestamp, useFormat } from "../../format.ts";
import { useMessages } from "../../i18n.ts";
import {
  DateField,
  FormFooter,
  focusFirstInvalid,
  happenedInFuture,
  NumberField,
  TextArea,
  TextField,
} from "../../ui/forms.tsx";
import { useAction } from "../../ui/page.tsx";
import { recordMessages } from "./messages.ts";
import { HiveRecordPage } from "./parts.tsx";
import { useHarvestForm } from "./queries.ts";
import { addYears, validAmountKg, validWaterContent, withdrawalAt } from "./rules.ts";

const varieties = [
  "spring",
  "summer",
  "rapeseed",
  "acacia",
  "lime",
  "forest",
  "heather",
  "wildflower",
] as const;

const amountColumn = columnSpec("harvest", "amount_kg");

export default function HarvestForm() {
  const t = useMessages(recordMessages);
  const { id } = useParams<{ id: string }>();
  return (
    <HiveRecordPage title={t("newHarvest")} live={useHarvestForm(id)}>
      {({ hive, treatments }) => <Form hive={hive} treatments={treatments} />}
    </HiveRecordPage>
  );
}

function Form(props: { hive: Hive; treatments: readonly Treatment[] }) {
  const t = useMessages(recordMessages);
  const fmt = useFormat();
  const client = useClient();
  const [, navigate] = useLocation();
  const now = useNow();
  const hiveId = props.hive.id;

  const [date, setDate] = useState<Date | undefined>(now);
  const [amount, setAmount] = useState<number | undefined>();
  const [variety, setVariety] = useState("");
  const [water, setWater] = useState<number | undefined>();
  const [batchNumber, setBatchNumber] = useState("");
  const [bestBefore, setBestBefore] = useState<Date | undefined>();
  const [note, setNote] = useState("");
  // A missing amount (required) in the form's words; a wrong one in the registry rule's.
  const [amountMissing, setAmountMissing] = useState(false);
  const [showProblems, setShowProblems] = useState(false);
  // Honey taken inside a withdrawal period is saved only when the beekeeper says so (issue 26).
  const [confirmed, setConfirmed] = useState(false);
  const [confirmMissing, setConfirmMissing] = useState(false);

  const save = useAction(async (kg: number, when: Date) => {
    await client.harvests.createHarvest({
      hiveId,
      amountKg: kg,
      date: toTimestamp(when),
      variety: variety.trim(),
      waterContent: water ?? 0,
      batchNumber: batchNumber.trim(),
      ...(bestBefore ? { bestBefore: toTimestamp(bestBefore) } : {}),
      note: note.trim(),
    });
    navigate(paths.hive(hiveId), { replace: true });
  });

  const blocking = withdrawalAt(props.treatments, date ?? now);
  const waterHigh = water !== undefined && validWaterContent(water) && water > 18;

  return (
    <>
      {blocking && (
        <p className="notice notice--warn" role="status">
          <span className="notice__text">
            <strong>
              {t("harvestWithdrawal", {
                product: blocking.product,
                date: fmt.date(blocking.withdrawalUntil),
              })}
            </strong>
          </span>
        </p>
      )}
      <form
        className="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const amountOk = validAmountKg(amount);
          const waterOk = validWaterContent(water);
          setAmountMissing(amount === undefined);
          setShowProblems(!amountOk || !waterOk);
          const when = date ?? now;
          const confirmOk = blocking === undefined || confirmed;
          setConfirmMissing(!confirmOk);
          if (amountOk && waterOk && confirmOk && !happenedInFuture(when, now)) {
            void save.run(amount, when);
          } else focusFirstInvalid(e.currentTarget);
        }}
      >
        <div className="form__row">
          <NumberField
            label={t("amount")}
            value={amount}
            onChange={(v) => {
              setAmount(v);
              if (v !== undefined) setAmountMissing(false);
            }}
            unit="kg"
            column={amountColumn}
            showProblem={showProblems}
            error={amountMissing ? t("amountInvalid") : undefined}
            required
          />
          <DateField label={t("date")} value={date} onChange={setDate} happenedBy={now} required />
        </div>
        <TextField
          label={t("variety")}
          value={variety}
          onChange={setVariety}
          suggestions={varieties.map((k) => t(`varietyOption.${k}`))}
          hint={t("varietyHint")}
        />
        <div className="form__row">
          <NumberField
            label={t("waterContent")}
            value={water}
            onChange={setWater}
            unit="%"
            hint={waterHigh ? t("waterContentHigh") : t("waterContentHint")}
            column={columnSpec("harvest", "water_content")}
            showProblem={showProblems}
          />
          <TextField label={t("batchNumber")} value={batchNumber} onChange={setBatchNumber} />
        </div>
        <div className="records-bestbefore">
          <DateField label={t("bestBefore")} value={bestBefore} onChange={setBestBefore} dateOnly />
          <button
            type="button"
            className="button button--secondary"
            onClick={() => setBestBefore(addYears(date ?? now, 2))}
          >
            {t("bestBeforeTwoYears")}
          </button>
        </div>
        <TextArea label={t("note")} value={note} onChange={setNote} />
        {blocking && (
          <div className="field records-confirm">
            <label className="records-confirm__label">
              <input
                type="checkbox"
                checked={confirmed}
                aria-invalid={confirmMissing || undefined}
                aria-describedby={confirmMissing ? "harvest-confirm-error" : undefined}
                onChange={(e) => {
                  setConfirmed(e.target.checked);
                  if (e.target.checked) setConfirmMissing(false);
                }}
              />{" "}
              {t("confirmWithdrawal", { date: fmt.date(blocking.withdrawalUntil) })}
            </label>
            {confirmMissing && (
              <p className="field__error" id="harvest-confirm-error" role="alert">
                {t("confirmWithdrawalMissing")}
              </p>
            )}
          </div>
        )}
        <FormFooter action={save} label={t("saveHarvest")} big />
      </form>
    </>
  );
}
