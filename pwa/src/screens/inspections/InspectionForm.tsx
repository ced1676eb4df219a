/**
 * A new inspection of a hive (`/hives/:id/inspect`), made for gloves and sunlight: big switches,
 * steppers and choices, the colony state carried over from the last inspection, so a routine
 * visit is "Inspect" → change one thing → "Save inspection". Photos are made small on the device
 * and stored with the inspection. Everything is written to the device and syncs later.
 */
import "./inspection-form.css";
import type { Hive, Inspection } from "@hivekeep/proto";
import { useState } from "react";
import { Link, useLocation, useParams } from "wouter";
import { useClient, useReadOnly } from "../../app/client.tsx";
import { useNow } from "../../app/now.tsx";
import { paths } from "../../app/paths.ts";
import { toTimestamp, useFormat } from "../../format.ts";
import { useMessages } from "../../i18n.ts";
import { DateField, focusFirstInvalid, happenedInFuture, TextArea } from "../../ui/forms.tsx";
import { Card, ErrorNote, errorText, LiveView, Page, ReadOnlyPage } from "../../ui/page.tsx";
import {
  type ColonyState,
  type InspectionDraft,
  invalidMeasurements,
  newDraft,
  toCreateFields,
} from "./fields.ts";
import {
  ColonyCard,
  type DraftSetter,
  MeasurementsCard,
  ObservationsCard,
  WeatherCard,
} from "./InspectionCards.tsx";
import { inspectionMessages } from "./messages.ts";
import {
  PhotoFileButton,
  PhotoStatus,
  PhotoThumb,
  photoRoom,
  usePhotoPreparation,
} from "./PhotoInput.tsx";
import { useInspectionForm } from "./queries.ts";

export default function InspectionForm() {
  const t = useMessages(inspectionMessages);
  const { id } = useParams<{ id: string }>();
  const readOnly = useReadOnly();
  const form = useInspectionForm(id);
  return (
    <LiveView live={form} back={paths.hives}>
      {({ hive, prefill, prefillFrom }) =>
        // A read-only (demo) session cannot record an inspection: it says so.
        readOnly ? (
          <ReadOnlyPage title={t("formTitle", { hive: hive.name })} back={paths.hive(hive.id)} />
        ) : (
          // Mounted once the prefill is known: the form takes it as its start and ignores later
          // changes (a sync arriving while the beekeeper fills it in does not overwrite what they
          // set). Keyed by the hive: another hive's inspection starts afresh.
          <Form key={hive.id} hive={hive} prefill={prefill} prefillFrom={prefillFrom} />
        )
      }
    </LiveView>
  );
}

interface Photo {
  readonly dataUrl: string;
}

function Form(props: { hive: Hive; prefill: ColonyState; prefillFrom: Inspection | undefined }) {
  const t = useMessages(inspectionMessages);
  const fmt = useFormat();
  const now = useNow();
  const client = useClient();
  const [, navigate] = useLocation();
  const { hive } = props;
  // As the form started (this inspection, once saved, becomes the hive's last one).
  const [prefillFrom] = useState(props.prefillFrom);

  const [draft, setDraft] = useState<InspectionDraft>(() => newDraft(props.prefill, now));
  const set: DraftSetter = (key) => (value) => setDraft((d) => ({ ...d, [key]: value }));

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
    if (invalid.length > 0 || happenedInFuture(draft.date, now)) {
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
        date: toTimestamp(draft.date ?? now),
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

  return (
    <Page title={t("formTitle", { hive: hive.name })} back={paths.hive(hive.id)}>
      <form
        className="form inspection-form"
        noValidate
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

        <ObservationsCard draft={draft} set={set} />
        <ColonyCard draft={draft} set={set} />

        <Card title={t("photos")}>
          {photos.length > 0 && (
            <ul className="photos">
              {photos.map((p, i) => (
                <li key={p.dataUrl} className="photos__item">
                  <PhotoThumb photo={p.dataUrl} alt={t("photoAlt", { n: i + 1 })} />
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

        <WeatherCard draft={draft} set={set} />
        <MeasurementsCard draft={draft} set={set} showProblems={showErrors} />

        <Card>
          <TextArea label={t("note")} value={draft.note} onChange={set("note")} rows={3} />
          <DateField
            label={t("date")}
            hint={t("dateHint")}
            value={draft.date}
            onChange={set("date")}
            happenedBy={now}
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
