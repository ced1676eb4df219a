/**
 * A new inspection of a hive (`/hives/:id/inspect`), made for gloves and sunlight: big switches,
 * steppers and choices, the colony state carried over from the last inspection, so a routine
 * visit is "Inspect" → change one thing → "Save inspection". Photos are made small on the device
 * and stored with the inspection. Everything is written to the device and syncs later.
 */
import "./inspection-form.css";
import { type Hive, type Inspection, Stores, Temperament } from "@hivekeep/proto";
import { useState } from "react";
import { Link, useLocation, useParams } from "wouter";
import { useClient, useLiveResult, useReadOnly } from "../../app/client.tsx";
import { paths } from "../../app/paths.ts";
import { toTimestamp, useFormat } from "../../format.ts";
import { useMessages } from "../../i18n.ts";
import {
  Choice,
  DateField,
  focusFirstInvalid,
  NumberField,
  Stepper,
  TextArea,
  TextField,
  Toggle,
} from "../../ui/forms.tsx";
import { commonMessages, label, storesLevels, temperaments } from "../../ui/messages.ts";
import {
  Card,
  ErrorNote,
  errorText,
  Loading,
  NotFound,
  Page,
  ReadOnlyPage,
} from "../../ui/page.tsx";
import {
  type ColonyState,
  calmnessRange,
  hasPreset,
  type InspectionDraft,
  invalidMeasurements,
  lastColonyState,
  type MeasurementKey,
  measurementRanges,
  newDraft,
  toCreateFields,
  togglePreset,
} from "./fields.ts";
import { inspectionMessages } from "./messages.ts";
import { PhotoFileButton, PhotoStatus, photoRoom, usePhotoPreparation } from "./PhotoInput.tsx";

export default function InspectionForm() {
  const t = useMessages(inspectionMessages);
  const { id } = useParams<{ id: string }>();
  const readOnly = useReadOnly();
  const result = useLiveResult(
    async (c) => {
      const { hive } = await c.hives.getHive({ id });
      const last = await lastColonyState((page) =>
        c.inspections.listInspections({ hiveId: id, page }),
      );
      return { hive, last };
    },
    [id],
  );
  if (result === undefined) return <Loading />;
  if ("error" in result || result.value.hive === undefined) return <NotFound back={paths.hives} />;
  const { hive, last } = result.value;
  // A read-only (demo) session cannot record an inspection: it says so.
  if (readOnly) {
    return <ReadOnlyPage title={t("formTitle", { hive: hive.name })} back={paths.hive(hive.id)} />;
  }
  // Mounted once the prefill is known: the form takes it as its start and ignores later changes
  // (a sync arriving while the beekeeper fills it in does not overwrite what they set).
  // Keyed by the hive: another hive's inspection starts afresh.
  return <Form key={hive.id} hive={hive} prefill={last.state} prefillFrom={last.from} />;
}

const weatherPresets = ["sunny", "cloudy", "rain", "windy"] as const;

interface Photo {
  readonly dataUrl: string;
}

function Form(props: { hive: Hive; prefill: ColonyState; prefillFrom?: Inspection }) {
  const t = useMessages(inspectionMessages);
  const tc = useMessages(commonMessages);
  const fmt = useFormat();
  const client = useClient();
  const [, navigate] = useLocation();
  const { hive } = props;
  // As the form started (this inspection, once saved, becomes the hive's last one).
  const [prefillFrom] = useState(props.prefillFrom);

  const [draft, setDraft] = useState<InspectionDraft>(() => newDraft(props.prefill, new Date()));
  const set =
    <K extends keyof InspectionDraft>(key: K) =>
    (value: InspectionDraft[K]) =>
      setDraft((d) => ({ ...d, [key]: value }));

  const [photos, setPhotos] = useState<Photo[]>([]);
  const photoPrep = usePhotoPreparation();
  const addFiles = async (files: File[]) => {
    const urls = await photoPrep.prepare(files, photoRoom(photos.length));
    setPhotos((ps) => {
      const have = new Set(ps.map((p) => p.dataUrl));
      return [...ps, ...urls.filter((u) => !have.has(u)).map((dataUrl) => ({ dataUrl }))];
    });
  };

  const [showErrors, setShowErrors] = useState(false);
  const invalid = invalidMeasurements(draft);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  // Set once CreateInspection succeeded but a photo did not: the inspection must not be saved twice.
  const [partly, setPartly] = useState<{ id: string; message: string } | undefined>();

  const save = async (form: HTMLFormElement) => {
    if (invalid.length > 0) {
      setShowErrors(true);
      focusFirstInvalid(form);
      return;
    }
    setBusy(true);
    setError(undefined);
    let inspectionId: string | undefined;
    try {
      const res = await client.inspections.createInspection({
        hiveId: hive.id,
        date: toTimestamp(draft.date ?? new Date()),
        ...toCreateFields(draft),
      });
      inspectionId = res.inspection?.id ?? "";
      for (const p of photos) {
        await client.inspections.addInspectionPhoto({ inspectionId, photo: p.dataUrl });
      }
      navigate(paths.hive(hive.id));
    } catch (err) {
      if (inspectionId !== undefined) setPartly({ id: inspectionId, message: errorText(err) });
      else setError(err);
    } finally {
      setBusy(false);
    }
  };

  const measurement = (key: MeasurementKey, labelText: string, unit: string) => {
    const range = measurementRanges[key];
    return (
      <NumberField
        label={labelText}
        unit={unit}
        value={draft[key]}
        onChange={set(key)}
        min={range.min}
        max={range.max}
        error={
          showErrors && invalid.includes(key)
            ? t("outOfRange", { min: fmt.number(range.min), max: fmt.number(range.max) })
            : undefined
        }
      />
    );
  };

  const storesOptions = [...storesLevels, Stores.UNSPECIFIED].map((v) => ({
    value: v,
    label: label.stores(tc, v),
  }));
  const temperamentOptions = [...temperaments, Temperament.UNSPECIFIED].map((v) => ({
    value: v,
    label: label.temperament(tc, v),
  }));

  return (
    <Page title={t("formTitle", { hive: hive.name })} back={paths.hive(hive.id)}>
      <form
        className="form inspection-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (!busy && partly === undefined) void save(e.currentTarget);
        }}
      >
        <p className="muted">
          {prefillFrom
            ? t("prefilled", { date: fmt.date(prefillFrom.date) })
            : t("firstInspection")}
        </p>

        <Card title={t("observations")}>
          <div className="inspection-form__toggles">
            <Toggle label={t("queenSeen")} checked={draft.queenSeen} onChange={set("queenSeen")} />
            <Toggle label={t("eggsSeen")} checked={draft.eggsSeen} onChange={set("eggsSeen")} />
            <Toggle
              label={t("coveredLarva")}
              checked={draft.coveredLarva}
              onChange={set("coveredLarva")}
            />
            <Toggle
              label={t("superAdded")}
              checked={draft.superAdded}
              onChange={set("superAdded")}
            />
          </div>
        </Card>

        <Card title={t("colony")}>
          <div className="inspection-form__steppers">
            <Stepper
              label={t("frames")}
              value={draft.frames}
              onChange={set("frames")}
              min={1}
              max={60}
              start={10}
            />
            <Stepper
              label={t("broodFrames")}
              value={draft.broodFrames}
              onChange={set("broodFrames")}
              min={0}
              max={60}
              start={4}
            />
            <Stepper
              label={t("queenCells")}
              value={draft.queenCells}
              onChange={set("queenCells")}
              min={0}
              max={99}
              start={1}
            />
            <div>
              <Stepper
                label={t("calmness")}
                value={draft.calmness}
                onChange={set("calmness")}
                min={calmnessRange.min}
                max={calmnessRange.max}
              />
              <p className="field__hint">{t("calmnessHint")}</p>
            </div>
          </div>
          <Choice
            label={t("stores")}
            value={draft.stores}
            options={storesOptions}
            onChange={(v) => set("stores")(v ?? Stores.UNSPECIFIED)}
          />
          <Choice
            label={t("temperament")}
            value={draft.temperament}
            options={temperamentOptions}
            onChange={(v) => set("temperament")(v ?? Temperament.UNSPECIFIED)}
          />
          <TextField
            label={t("varroa")}
            hint={t("varroaHint")}
            value={draft.varroa}
            onChange={set("varroa")}
          />
        </Card>

        <Card title={t("photos")}>
          {photos.length > 0 && (
            <ul className="photos">
              {photos.map((p, i) => (
                <li key={p.dataUrl} className="photos__item">
                  <img
                    className="photos__thumb"
                    src={p.dataUrl}
                    alt={t("photoAlt", { n: i + 1 })}
                  />
                  <button
                    type="button"
                    className="button button--danger button--small"
                    onClick={() => setPhotos((ps) => ps.filter((x) => x.dataUrl !== p.dataUrl))}
                  >
                    {t("removePhoto")}
                  </button>
                </li>
              ))}
            </ul>
          )}
          <div className="form__actions">
            <PhotoFileButton
              label={t("takePhoto")}
              camera
              disabled={photoPrep.busy || photoRoom(photos.length) === 0}
              onFiles={(f) => void addFiles(f)}
            />
            <PhotoFileButton
              label={t("chooseFromGallery")}
              disabled={photoPrep.busy || photoRoom(photos.length) === 0}
              onFiles={(f) => void addFiles(f)}
            />
          </div>
          <PhotoStatus
            busy={photoPrep.busy}
            errors={photoPrep.errors}
            room={photoRoom(photos.length)}
          />
        </Card>

        <Card title={t("weather")}>
          <fieldset className="presets">
            <legend className="presets__label">{t("weatherPresets")}</legend>
            <div className="presets__row">
              {weatherPresets.map((k) => {
                const word = t(k);
                const on = hasPreset(draft.weather, word);
                return (
                  <button
                    key={k}
                    type="button"
                    className="preset"
                    aria-pressed={on}
                    onClick={() => set("weather")(togglePreset(draft.weather, word))}
                  >
                    {word}
                  </button>
                );
              })}
            </div>
          </fieldset>
          <TextField label={t("weather")} value={draft.weather} onChange={set("weather")} />
        </Card>

        <Card title={t("measurements")}>
          <p className="field__hint">{t("measurementsHint")}</p>
          <div className="inspection-form__measures">
            {measurement("weightKg", t("weight"), "kg")}
            {measurement("tempHive", t("tempHive"), "°C")}
            {measurement("tempOutside", t("tempOutside"), "°C")}
            {measurement("humidityHive", t("humidityHive"), "%")}
            {measurement("humidityOutside", t("humidityOutside"), "%")}
          </div>
        </Card>

        <Card>
          <TextArea label={t("note")} value={draft.note} onChange={set("note")} rows={3} />
          <DateField
            label={t("date")}
            hint={t("dateHint")}
            value={draft.date}
            onChange={set("date")}
          />
        </Card>

        <ErrorNote error={error} />
        {partly && (
          <div className="notice notice--warn" role="alert">
            <p className="notice__text">{t("photosSavedPartly", { message: partly.message })}</p>
            <Link href={paths.inspection(partly.id)} className="button">
              {t("openInspection")}
            </Link>
          </div>
        )}
        <div className="form__actions inspection-form__save">
          <button
            type="submit"
            className="button button--primary button--big"
            disabled={busy || photoPrep.busy || partly !== undefined}
          >
            {busy ? t("saving") : t("save")}
          </button>
        </div>
      </form>
    </Page>
  );
}
