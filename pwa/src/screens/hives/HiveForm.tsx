/**
 * Create a hive (`/hives/new`, `?apiary=<id>` preselects its apiary) or edit one
 * (`/hives/:id/edit`). UpdateHive overwrites every field, so an edit sends the whole hive back:
 * the current one with the edited fields changed. The apiary changes only by moving the hive.
 * A new hive has its set-up date (today, or the day it came to its apiary: its history starts
 * there); never in the future, by the rule every service checks (core/happened.ts).
 */
import { columnSpec } from "@hivekeep/client-core/core";
import { type Apiary, type Hive, HiveStatus, HiveType } from "@hivekeep/proto";
import { useState } from "react";
import { Link, useLocation, useParams, useSearch } from "wouter";
import { useClient, useReadOnly } from "../../app/client.tsx";
import { useNow } from "../../app/now.tsx";
import { paths } from "../../app/paths.ts";
import { toTimestamp } from "../../format.ts";
import { useMessages } from "../../i18n.ts";
import {
  DateField,
  FormFooter,
  focusFirstInvalid,
  happenedInFuture,
  SelectField,
  Stepper,
  TextArea,
  TextField,
} from "../../ui/forms.tsx";
import { commonMessages, hiveStatuses, hiveTypes, label } from "../../ui/messages.ts";
import { LiveView, Page, ReadOnlyPage, useAction } from "../../ui/page.tsx";
import { hiveMessages } from "./messages.ts";
import { ApiarySelect } from "./parts.tsx";
import { useHiveForm } from "./queries.ts";

export default function HiveForm() {
  const { id } = useParams<{ id?: string }>();
  const search = useSearch();
  const form = useHiveForm(id);
  const preset = new URLSearchParams(search).get("apiary") ?? "";
  return (
    <LiveView live={form} back={paths.hives}>
      {({ hive, apiaries }) =>
        // Keyed by the record: another hive's form (or a new one) starts from its own values.
        hive ? (
          <Form key={hive.id} hive={hive} apiaries={apiaries} />
        ) : (
          <Form key={`new:${preset}`} apiaries={apiaries} presetApiary={preset} />
        )
      }
    </LiveView>
  );
}

function Form(props: { hive?: Hive; apiaries: readonly Apiary[]; presetApiary?: string }) {
  const t = useMessages(hiveMessages);
  const tc = useMessages(commonMessages);
  const client = useClient();
  const readOnly = useReadOnly();
  const [, navigate] = useLocation();
  const h = props.hive;
  const { apiaries } = props;
  const initialApiary =
    apiaries.find((a) => a.id === props.presetApiary)?.id ??
    (apiaries.length === 1 ? (apiaries[0]?.id ?? "") : "");
  const [apiaryId, setApiaryId] = useState(initialApiary);
  const [name, setName] = useState(h?.name ?? "");
  const [type, setType] = useState<HiveType>(h?.type ?? HiveType.UNSPECIFIED);
  const [status, setStatus] = useState<HiveStatus>(h?.status || HiveStatus.ACTIVE);
  const [boxes, setBoxes] = useState<number | undefined>(h?.boxes || undefined);
  const [colonyOrigin, setColonyOrigin] = useState(h?.colonyOrigin ?? "");
  const [note, setNote] = useState(h?.note ?? "");
  const [qrCode, setQrCode] = useState(h?.qrCode ?? "");
  const now = useNow();
  // When the hive was set up at its apiary (create only): today, or a day it came there.
  const [setUp, setSetUp] = useState<Date | undefined>(now);
  const [nameError, setNameError] = useState<string | undefined>();
  const [apiaryError, setApiaryError] = useState<string | undefined>();
  const [setUpError, setSetUpError] = useState<string | undefined>();

  const save = useAction(async () => {
    const fields = {
      name: name.trim(),
      type,
      boxes: boxes ?? 0,
      colonyOrigin: colonyOrigin.trim(),
      note: note.trim(),
      qrCode: qrCode.trim(),
    };
    const res = h
      ? await client.hives.updateHive({ hive: { ...h, ...fields, status } })
      : await client.hives.createHive({
          apiaryId,
          ...fields,
          ...(setUp ? { date: toTimestamp(setUp) } : {}),
        });
    navigate(paths.hive(res.hive?.id ?? ""), { replace: true });
  });

  const title = h ? t("edit") : t("new");
  const back = h ? paths.hive(h.id) : paths.hives;
  if (readOnly) return <ReadOnlyPage title={title} back={back} />;
  if (!h && apiaries.length === 0) {
    return (
      <Page title={title} back={back}>
        <div className="notice notice--info">
          <p className="notice__text">{t("noApiary")}</p>
          <Link href={paths.newApiary} className="button">
            {t("createApiary")}
          </Link>
        </div>
      </Page>
    );
  }

  const apiaryName = h && apiaries.find((a) => a.id === h.apiaryId)?.name;
  const typeOptions = [HiveType.UNSPECIFIED, ...hiveTypes].map((v) => ({
    value: v,
    label: label.hiveType(tc, v),
  }));
  return (
    <Page title={title} back={back}>
      <form
        className="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const nameMissing = name.trim() === "";
          const apiaryMissing = !h && apiaryId === "";
          const dateProblem = h
            ? undefined
            : setUp === undefined
              ? t("setUpDateRequired")
              : happenedInFuture(setUp, now)
                ? t("dateInFuture")
                : undefined;
          setNameError(nameMissing ? t("nameRequired") : undefined);
          setApiaryError(apiaryMissing ? t("apiaryRequired") : undefined);
          setSetUpError(dateProblem);
          if (nameMissing || apiaryMissing || dateProblem) focusFirstInvalid(e.currentTarget);
          else void save.run();
        }}
      >
        {h ? (
          <p className="hive-form__apiary">
            <span>{t("standsAt", { apiary: apiaryName ?? t("unknownApiary") })}</span>{" "}
            <Link href={paths.relocateHive(h.id)}>{t("relocate")}</Link>
          </p>
        ) : (
          <ApiarySelect
            label={t("apiary")}
            value={apiaryId}
            apiaries={apiaries}
            onChange={setApiaryId}
            error={apiaryError}
          />
        )}
        <TextField
          label={t("name")}
          value={name}
          onChange={setName}
          required
          error={nameError}
          autoFocus={!h}
          maxLength={columnSpec("hive", "name").maxLength}
        />
        {!h && (
          <DateField
            label={t("setUpDate")}
            hint={t("setUpDateHint")}
            value={setUp}
            onChange={setSetUp}
            dateOnly
            required
            happenedBy={now}
            error={setUpError}
          />
        )}
        <div className="form__row">
          <SelectField label={t("type")} value={type} options={typeOptions} onChange={setType} />
          {h && (
            <SelectField
              label={t("status")}
              hint={t("statusHint")}
              value={status}
              options={hiveStatuses.map((v) => ({ value: v, label: label.hiveStatus(tc, v) }))}
              onChange={setStatus}
            />
          )}
        </div>
        {/* From 1: no boxes is "not set" (0); the most is the registry's. */}
        <Stepper
          label={t("boxes")}
          value={boxes}
          onChange={setBoxes}
          column={columnSpec("hive", "boxes")}
          min={1}
          start={1}
        />
        <TextField
          label={t("colonyOrigin")}
          hint={t("colonyOriginHint")}
          value={colonyOrigin}
          onChange={setColonyOrigin}
          maxLength={columnSpec("hive", "colony_origin").maxLength}
        />
        <TextField
          label={t("qrCode")}
          hint={t("qrCodeHint")}
          value={qrCode}
          onChange={setQrCode}
          autoComplete="off"
          maxLength={columnSpec("hive", "qr_code").maxLength}
        />
        <TextArea
          label={t("note")}
          value={note}
          onChange={setNote}
          rows={4}
          maxLength={columnSpec("hive", "note").maxLength}
        />
        <FormFooter action={save} label={tc("save")} cancel={back} />
      </form>
    </Page>
  );
}
