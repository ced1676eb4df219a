/** Create an apiary (`/apiaries/new`) or edit one (`/apiaries/:id/edit`). */
import { columnSpec } from "@hivekeep/client-core/core";
import type { Apiary } from "@hivekeep/proto";
import { useId, useState } from "react";
import { useLocation, useParams } from "wouter";
import { useClient, useReadOnly } from "../../app/client.tsx";
import { paths } from "../../app/paths.ts";
import { useMessages } from "../../i18n.ts";
import {
  FormFooter,
  focusFirstInvalid,
  NumberField,
  numberProblem,
  TextField,
} from "../../ui/forms.tsx";
import { commonMessages } from "../../ui/messages.ts";
import { ErrorText, LiveView, Page, ReadOnlyPage, useAction } from "../../ui/page.tsx";
import { apiaryMessages } from "./messages.ts";
import { useApiaryForm } from "./queries.ts";

const latColumn = columnSpec("apiary", "lat");
const lngColumn = columnSpec("apiary", "lng");

export default function ApiaryForm() {
  const t = useMessages(apiaryMessages);
  const { id } = useParams<{ id?: string }>();
  const readOnly = useReadOnly();
  // A read-only (demo) session cannot add or change an apiary: it says so. The form is keyed
  // by the apiary: going from one apiary's form to another's (or to a new one) starts afresh
  // instead of keeping the last one's values.
  if (id === undefined) {
    return readOnly ? <ReadOnlyPage title={t("new")} back={paths.apiaries} /> : <Form key="new" />;
  }
  return <EditApiary key={id} id={id} />;
}

function EditApiary(props: { id: string }) {
  const t = useMessages(apiaryMessages);
  const readOnly = useReadOnly();
  const apiary = useApiaryForm(props.id);
  return (
    <LiveView live={apiary} back={paths.apiaries}>
      {(a) =>
        readOnly ? (
          <ReadOnlyPage title={t("edit")} back={paths.apiary(a.id)} />
        ) : (
          <Form key={a.id} apiary={a} />
        )
      }
    </LiveView>
  );
}

function Form(props: { apiary?: Apiary }) {
  const t = useMessages(apiaryMessages);
  const tc = useMessages(commonMessages);
  const client = useClient();
  const [, navigate] = useLocation();
  const a = props.apiary;
  const [name, setName] = useState(a?.name ?? "");
  const [address, setAddress] = useState(a?.address ?? "");
  const [lat, setLat] = useState<number | undefined>(a?.lat || undefined);
  const [lng, setLng] = useState<number | undefined>(a?.lng || undefined);
  const [locating, setLocating] = useState(false);
  const [locationError, setLocationError] = useState<string | undefined>();
  const [nameError, setNameError] = useState<string | undefined>();
  const [showProblems, setShowProblems] = useState(false);
  const coordinatesHint = useId();

  const save = useAction(async () => {
    const values = { name: name.trim(), address: address.trim(), lat: lat ?? 0, lng: lng ?? 0 };
    const res = a
      ? await client.apiaries.updateApiary({ id: a.id, ...values })
      : await client.apiaries.createApiary(values);
    navigate(paths.apiary(res.apiary?.id ?? ""), { replace: true });
  });

  const locate = () => {
    setLocating(true);
    setLocationError(undefined);
    navigator.geolocation.getCurrentPosition(
      (pos) => {
        setLat(Math.round(pos.coords.latitude * 1e6) / 1e6);
        setLng(Math.round(pos.coords.longitude * 1e6) / 1e6);
        setLocating(false);
      },
      (err) => {
        setLocationError(t("locationFailed", { message: err.message }));
        setLocating(false);
      },
      { enableHighAccuracy: true, timeout: 20_000, maximumAge: 60_000 },
    );
  };

  return (
    <Page title={a ? t("edit") : t("new")} back={a ? paths.apiary(a.id) : paths.apiaries}>
      <form
        className="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const nameMissing = name.trim() === "";
          // The registry's rules of lat and lng, which CreateApiary applies too.
          const coordsBad =
            numberProblem(latColumn, lat) !== undefined ||
            numberProblem(lngColumn, lng) !== undefined;
          setNameError(nameMissing ? t("nameRequired") : undefined);
          setShowProblems(coordsBad);
          if (nameMissing || coordsBad) focusFirstInvalid(e.currentTarget);
          else void save.run();
        }}
      >
        <TextField
          label={t("name")}
          value={name}
          onChange={setName}
          required
          error={nameError}
          autoFocus={!a}
        />
        <TextField
          label={t("address")}
          value={address}
          onChange={setAddress}
          autoComplete="street-address"
        />
        <div className="form__row">
          <NumberField
            label={t("lat")}
            value={lat}
            onChange={setLat}
            column={latColumn}
            showProblem={showProblems}
            describedBy={coordinatesHint}
          />
          <NumberField
            label={t("lng")}
            value={lng}
            onChange={setLng}
            column={lngColumn}
            showProblem={showProblems}
            describedBy={coordinatesHint}
          />
        </div>
        <p className="field__hint" id={coordinatesHint}>
          {t("coordinatesHint")}
        </p>
        {"geolocation" in navigator && (
          <button
            type="button"
            className="button button--secondary"
            onClick={locate}
            disabled={locating}
          >
            {locating ? t("locating") : t("useLocation")}
          </button>
        )}
        <ErrorText text={locationError} />
        <FormFooter action={save} label={tc("save")} />
      </form>
    </Page>
  );
}
