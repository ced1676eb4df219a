/**
 * A treatment of a hive: a new one (`/hives/:id/treatment`) or the edit of one
 * (`/treatments/:id/edit`, reached from the hive page's treatment rows, where it is also deleted;
 * a treatment is a legal record, so a typo is corrected rather than left standing). The
 * withdrawal period is typed in days, as the pack states it; the form shows the date it ends as
 * it is typed and stores that date (withdrawalUntil). The date is one of something that
 * happened: not in the future.
 */
import "./treatment-form.css";
import type { Hive, Treatment } from "@hivekeep/proto";
import { useState } from "react";
import { useLocation, useParams, useRoute } from "wouter";
import { useClient } from "../../app/client.tsx";
import { useNow } from "../../app/now.tsx";
import { paths, routes } from "../../app/paths.ts";
import { daysSince, toDate, toTimestamp, useFormat } from "../../format.ts";
import { useMessages } from "../../i18n.ts";
import {
  DateField,
  FormFooter,
  focusFirstInvalid,
  happenedInFuture,
  NumberField,
  TextField,
} from "../../ui/forms.tsx";
import { useAction } from "../../ui/page.tsx";
import { changeMessages } from "./change-messages.ts";
import { recordMessages } from "./messages.ts";
import { HiveRecordPage } from "./parts.tsx";
import { useTreatmentForm } from "./queries.ts";
import { DeleteTreatment } from "./RecordDelete.tsx";
import {
  validWithdrawalDays,
  withdrawalDaysOf,
  withdrawalDaysRule,
  withdrawalEnd,
} from "./rules.ts";

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
  const tx = useMessages(changeMessages);
  const { id } = useParams<{ id: string }>();
  const [editing] = useRoute(routes.editTreatment);
  const live = useTreatmentForm(editing ? { treatmentId: id } : { hiveId: id });
  const title =
    live.status === "ready" && live.value.treatment
      ? tx("editTreatmentOf", { product: live.value.treatment.product })
      : editing
        ? tx("editTreatment")
        : t("newTreatment");
  return (
    <HiveRecordPage title={title} live={live}>
      {({ hive, treatment }) => (
        <>
          <Form key={treatment?.id ?? "new"} hive={hive} treatment={treatment} />
          {treatment && <DeleteTreatment treatment={treatment} />}
        </>
      )}
    </HiveRecordPage>
  );
}

function Form(props: { hive: Hive; treatment: Treatment | undefined }) {
  const t = useMessages(recordMessages);
  const tx = useMessages(changeMessages);
  const fmt = useFormat();
  const client = useClient();
  const [, navigate] = useLocation();
  const now = useNow();
  const hiveId = props.hive.id;
  const [x] = useState(props.treatment);

  const [date, setDate] = useState<Date | undefined>(x ? toDate(x.date) : now);
  const [product, setProduct] = useState(x?.product ?? "");
  const [activeIngredient, setActiveIngredient] = useState(x?.activeIngredient ?? "");
  const [dose, setDose] = useState(x?.dose ?? "");
  const [method, setMethod] = useState(x?.method ?? "");
  const [reason, setReason] = useState(x ? x.reason : t("reasonDefault"));
  const [batchNumber, setBatchNumber] = useState(x?.batchNumber ?? "");
  const [supplier, setSupplier] = useState(x?.supplier ?? "");
  const [days, setDays] = useState<number | undefined>(x && withdrawalDaysOf(x));
  const [productError, setProductError] = useState<string | undefined>();
  const [showDaysProblem, setShowDaysProblem] = useState(false);

  const save = useAction(async (when: Date) => {
    const until = withdrawalEnd(when, days);
    const fields = {
      product: product.trim(),
      activeIngredient: activeIngredient.trim(),
      dose: dose.trim(),
      method: method.trim(),
      batchNumber: batchNumber.trim(),
      supplier: supplier.trim(),
      reason: reason.trim(),
      date: toTimestamp(when),
    };
    if (x) {
      // UpdateTreatment overwrites the fields of the message: the whole record with the changes.
      // A date and a period left as they were keep the stored end exactly (an edit records only
      // what it changes).
      const { withdrawalUntil: stored, ...rest } = x;
      const same = days === withdrawalDaysOf(x) && when.getTime() === toDate(x.date)?.getTime();
      const end = same ? stored : until && toTimestamp(until);
      await client.treatments.updateTreatment({
        treatment: { ...rest, ...fields, ...(end ? { withdrawalUntil: end } : {}) },
      });
    } else {
      await client.treatments.createTreatment({
        hiveId,
        ...fields,
        ...(until ? { withdrawalUntil: toTimestamp(until) } : {}),
      });
    }
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
        const when = date ?? (x ? toDate(x.date) : undefined) ?? now;
        if (productOk && daysOk && !happenedInFuture(when, now)) void save.run(when);
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
        <DateField label={t("date")} value={date} onChange={setDate} happenedBy={now} required />
        <TextField label={t("batchNumber")} value={batchNumber} onChange={setBatchNumber} />
      </div>
      <TextField
        label={t("supplier")}
        value={supplier}
        onChange={setSupplier}
        hint={t("supplierHint")}
      />
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
      <FormFooter
        action={save}
        label={x ? tx("saveChanges") : t("saveTreatment")}
        big
        {...(x ? { cancel: paths.hive(hiveId) } : {})}
      />
    </form>
  );
}
