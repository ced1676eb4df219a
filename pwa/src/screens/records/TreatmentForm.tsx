/**
 * A treatment of a hive (`/hives/:id/treatment`). The withdrawal period is typed in days, as the
 * pack states it; the form shows the date it ends as it is typed and stores that date
 * (withdrawalUntil). Treatments are legal records: there is no edit or delete.
 */
import "./treatment-form.css";
import type { Hive } from "@hivekeep/proto";
import { useState } from "react";
import { useLocation, useParams } from "wouter";
import { useClient } from "../../app/client.tsx";
import { useNow } from "../../app/now.tsx";
import { paths } from "../../app/paths.ts";
import { daysSince, toTimestamp, useFormat } from "../../format.ts";
import { useMessages } from "../../i18n.ts";
import {
  DateField,
  FormFooter,
  focusFirstInvalid,
  NumberField,
  TextField,
} from "../../ui/forms.tsx";
import { useAction } from "../../ui/page.tsx";
import { recordMessages } from "./messages.ts";
import { HiveRecordPage } from "./parts.tsx";
import { useTreatmentForm } from "./queries.ts";
import { validWithdrawalDays, withdrawalDaysRule, withdrawalEnd } from "./rules.ts";

/** Common products in Central Europe (trade names are the same in both languages). */
const products = [
  "Oxuvar",
  "Api-Bioxal",
  "Oxybee",
  "VarroMed",
  "Formivar 60 %",
  "Formivar 85 %",
  "MAQS",
  "Apiguard",
  "Thymovar",
  "Apilife Var",
  "Apivar",
  "Bayvarol",
  "PolyVar Yellow",
  "Milchsäure 15 %",
];
const ingredients = ["oxalic", "formic", "lactic", "thymol", "amitraz", "flumethrin"] as const;
const methods = ["trickle", "spray", "evaporate", "sublimate", "strips"] as const;

export default function TreatmentForm() {
  const t = useMessages(recordMessages);
  const { id } = useParams<{ id: string }>();
  return (
    <HiveRecordPage title={t("newTreatment")} live={useTreatmentForm(id)}>
      {({ hive }) => <Form hive={hive} />}
    </HiveRecordPage>
  );
}

function Form(props: { hive: Hive }) {
  const t = useMessages(recordMessages);
  const fmt = useFormat();
  const client = useClient();
  const [, navigate] = useLocation();
  const now = useNow();
  const hiveId = props.hive.id;

  const [date, setDate] = useState<Date | undefined>(now);
  const [product, setProduct] = useState("");
  const [activeIngredient, setActiveIngredient] = useState("");
  const [dose, setDose] = useState("");
  const [method, setMethod] = useState("");
  const [reason, setReason] = useState(t("reasonDefault"));
  const [batchNumber, setBatchNumber] = useState("");
  const [days, setDays] = useState<number | undefined>();
  const [productError, setProductError] = useState<string | undefined>();
  const [showDaysProblem, setShowDaysProblem] = useState(false);

  const save = useAction(async (when: Date) => {
    const until = withdrawalEnd(when, days);
    await client.treatments.createTreatment({
      hiveId,
      product: product.trim(),
      activeIngredient: activeIngredient.trim(),
      dose: dose.trim(),
      method: method.trim(),
      batchNumber: batchNumber.trim(),
      reason: reason.trim(),
      date: toTimestamp(when),
      ...(until ? { withdrawalUntil: toTimestamp(until) } : {}),
    });
    navigate(paths.hive(hiveId), { replace: true });
  });

  const daysOk = validWithdrawalDays(days);
  const end = daysOk ? withdrawalEnd(date ?? now, days) : undefined;
  const left = end ? -(daysSince(end, now) ?? 0) : 0;

  return (
    <form
      className="form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const productOk = product.trim() !== "";
        setProductError(productOk ? undefined : t("productRequired"));
        setShowDaysProblem(!daysOk);
        if (productOk && daysOk) void save.run(date ?? now);
        else focusFirstInvalid(e.currentTarget);
      }}
    >
      <TextField
        label={t("product")}
        value={product}
        onChange={(v) => {
          setProduct(v);
          if (v.trim() !== "") setProductError(undefined);
        }}
        suggestions={products}
        hint={t("productHint")}
        error={productError}
        required
        autoFocus
      />
      <div className="form__row">
        <TextField
          label={t("activeIngredient")}
          value={activeIngredient}
          onChange={setActiveIngredient}
          suggestions={ingredients.map((k) => t(`ingredientOption.${k}`))}
        />
        <TextField label={t("dose")} value={dose} onChange={setDose} hint={t("doseHint")} />
      </div>
      <div className="form__row">
        <TextField
          label={t("method")}
          value={method}
          onChange={setMethod}
          suggestions={methods.map((k) => t(`methodOption.${k}`))}
        />
        <TextField label={t("reason")} value={reason} onChange={setReason} />
      </div>
      <div className="form__row">
        <DateField label={t("date")} value={date} onChange={setDate} required />
        <TextField label={t("batchNumber")} value={batchNumber} onChange={setBatchNumber} />
      </div>
      <div className="form__row">
        <NumberField
          label={t("withdrawalDays")}
          value={days}
          onChange={setDays}
          unit={t("days")}
          hint={t("withdrawalDaysHint")}
          column={withdrawalDaysRule}
          showProblem={showDaysProblem}
        />
        <output className="records-withdrawal" aria-live="polite">
          {end ? (
            <>
              <span className="records-withdrawal__label">{t("withdrawalEnds")}</span>
              <span className="records-withdrawal__date">{fmt.date(end)}</span>
              <span className="records-withdrawal__rest">
                {left > 0 ? t("withdrawalEndsIn", { count: left }) : t("withdrawalEnded")}
                {left > 0 && ` · ${t("withdrawalNoHarvest")}`}
              </span>
            </>
          ) : (
            <span className="records-withdrawal__none">{t("withdrawalNone")}</span>
          )}
        </output>
      </div>
      <FormFooter action={save} label={t("saveTreatment")} big />
    </form>
  );
}
