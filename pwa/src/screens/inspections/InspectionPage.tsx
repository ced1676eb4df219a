/**
 * One inspection (`/inspections/:id`, a link that works offline): what was recorded and nothing
 * else (a field left at "not set" is not shown), the hive, its apiary and queen as of that date,
 * and the photos (tap to see one large; add or remove them).
 */
import "./inspection-page.css";
import type { Apiary, Hive, Inspection, Queen } from "@hivekeep/proto";
import { Stores, Temperament } from "@hivekeep/proto";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { Link, useParams } from "wouter";
import { useClient, useLiveResult, useReadOnly } from "../../app/client.tsx";
import { paths } from "../../app/routes.tsx";
import { toDate, useFormat } from "../../format.ts";
import { useMessages } from "../../i18n.ts";
import { commonMessages, label } from "../../ui/messages.ts";
import {
  Card,
  ConfirmButton,
  ErrorNote,
  Loading,
  MarkingDot,
  NotFound,
  Page,
  useAction,
} from "../../ui/page.tsx";
import { calmnessRange, hasMeasurements, isColonyCheck } from "./fields.ts";
import { inspectionMessages } from "./messages.ts";
import { PhotoFileButton, PhotoStatus, photoRoom, usePhotoPreparation } from "./PhotoInput.tsx";

interface Loaded {
  readonly inspection: Inspection;
  readonly hive?: Hive;
  readonly apiary?: Apiary;
  readonly queen?: Queen;
}

/** The record a lookup names, or undefined when it is gone (deleted meanwhile). */
const orMissing = <T,>(p: Promise<T>): Promise<T | undefined> => p.catch(() => undefined);

export default function InspectionPage() {
  const { id } = useParams<{ id: string }>();
  const result = useLiveResult<Loaded | undefined>(
    async (c) => {
      const { inspection } = await c.inspections.getInspection({ id });
      if (!inspection) return undefined;
      const [hive, apiary, queen] = await Promise.all([
        orMissing(c.hives.getHive({ id: inspection.hiveId }).then((r) => r.hive)),
        inspection.apiaryId
          ? orMissing(c.apiaries.getApiary({ id: inspection.apiaryId }).then((r) => r.apiary))
          : undefined,
        inspection.queenId
          ? orMissing(c.queens.getQueen({ id: inspection.queenId }).then((r) => r.queen))
          : undefined,
      ]);
      return { inspection, hive, apiary, queen };
    },
    [id],
  );
  if (result === undefined) return <Loading />;
  if ("error" in result || result.value === undefined) return <NotFound back={paths.hives} />;
  return <Details {...result.value} />;
}

/** A term and its value; nothing when there is no value. */
function Fact(props: {
  readonly term: string;
  readonly children: ReactNode;
  /** A longer text: the whole row. */
  readonly wide?: boolean;
}) {
  if (props.children === undefined || props.children === null || props.children === false)
    return null;
  return (
    <div className={props.wide ? "facts__item facts__item--wide" : "facts__item"}>
      <dt className="facts__term">{props.term}</dt>
      <dd className="facts__value">{props.children}</dd>
    </div>
  );
}

function Details({ inspection: i, hive, apiary, queen }: Loaded) {
  const t = useMessages(inspectionMessages);
  const tc = useMessages(commonMessages);
  const fmt = useFormat();
  const readOnly = useReadOnly();

  const when = toDate(i.date);
  const created = toDate(i.createdAt);
  // Entered long after the visit (back-dated): say when it was written down.
  const backDated =
    when !== undefined && created !== undefined && created.getTime() - when.getTime() > 3_600_000;
  const title = hive ? t("pageTitle", { hive: hive.name }) : t("pageTitleNoHive");
  const yesNo = (v: boolean) => (
    <span className={v ? "badge badge--ok" : "badge"}>{v ? t("yes") : t("no")}</span>
  );
  const count = (n: number) => (n > 0 ? fmt.number(n, 0) : undefined);
  const colonyCheck = isColonyCheck(i);
  const measured = hasMeasurements(i);

  return (
    <Page title={title} back={hive ? paths.hive(hive.id) : paths.hives}>
      <Card>
        <p className="inspection__date">{fmt.dateTime(i.date)}</p>
        {backDated && (
          <p className="muted">{t("enteredAt", { when: fmt.dateTime(i.createdAt) })}</p>
        )}
        <dl className="facts">
          <Fact term={t("hive")}>
            {hive ? <Link href={paths.hive(hive.id)}>{hive.name}</Link> : t("deletedHive")}
          </Fact>
          <Fact term={t("apiary")}>
            {apiary ? (
              <Link href={paths.apiary(apiary.id)}>{apiary.name}</Link>
            ) : i.apiaryId ? (
              t("deletedApiary")
            ) : undefined}
          </Fact>
          <Fact term={t("queen")} wide>
            {queen ? (
              <span className="inspection__queen">
                <MarkingDot marking={queen.marking} />
                {t("queenYear", { year: queen.year })}
                {queen.marking ? ` · ${label.marking(tc, queen.marking)}` : ""}
                {queen.origin ? ` · ${queen.origin}` : ""}
              </span>
            ) : (
              <span className="muted">{t("noQueen")}</span>
            )}
          </Fact>
        </dl>
      </Card>

      {colonyCheck && (
        <Card title={t("colony")}>
          <dl className="facts">
            <Fact term={t("queenSeen")}>{yesNo(i.queenSeen)}</Fact>
            <Fact term={t("eggsSeen")}>{yesNo(i.eggsSeen)}</Fact>
            <Fact term={t("coveredLarva")}>{yesNo(i.coveredLarva)}</Fact>
            <Fact term={t("superAdded")}>{yesNo(i.superAdded)}</Fact>
            <Fact term={t("frames")}>{count(i.frames)}</Fact>
            <Fact term={t("broodFrames")}>{count(i.broodFrames)}</Fact>
            <Fact term={t("queenCells")}>{count(i.queenCells)}</Fact>
            <Fact term={t("calmness")}>
              {i.calmness > 0
                ? i.calmness <= calmnessRange.max
                  ? t("calmnessValue", { value: i.calmness })
                  : fmt.number(i.calmness, 0)
                : undefined}
            </Fact>
            <Fact term={t("stores")}>
              {i.stores !== Stores.UNSPECIFIED ? label.stores(tc, i.stores) : undefined}
            </Fact>
            <Fact term={t("temperament")}>
              {i.temperament !== Temperament.UNSPECIFIED
                ? label.temperament(tc, i.temperament)
                : undefined}
            </Fact>
            <Fact term={t("varroa")} wide>
              {i.varroa || undefined}
            </Fact>
          </dl>
        </Card>
      )}

      {measured && (
        <Card title={t("measurements")}>
          <dl className="facts">
            <Fact term={t("weight")}>{i.weightKg !== 0 ? fmt.kg(i.weightKg) : undefined}</Fact>
            <Fact term={t("tempHive")}>
              {i.tempHive !== 0 ? fmt.celsius(i.tempHive) : undefined}
            </Fact>
            <Fact term={t("tempOutside")}>
              {i.tempOutside !== 0 ? fmt.celsius(i.tempOutside) : undefined}
            </Fact>
            <Fact term={t("humidityHive")}>
              {i.humidityHive !== 0 ? fmt.percent(i.humidityHive) : undefined}
            </Fact>
            <Fact term={t("humidityOutside")}>
              {i.humidityOutside !== 0 ? fmt.percent(i.humidityOutside) : undefined}
            </Fact>
            <Fact term={t("weather")} wide>
              {i.weather || undefined}
            </Fact>
          </dl>
        </Card>
      )}

      {i.note && (
        <Card title={t("note")}>
          <p className="inspection__note">{i.note}</p>
        </Card>
      )}

      {!colonyCheck && !measured && !i.note && <p className="muted">{t("notRecorded")}</p>}

      <Photos inspection={i} readOnly={readOnly} />
    </Page>
  );
}

function Photos(props: { readonly inspection: Inspection; readonly readOnly: boolean }) {
  const t = useMessages(inspectionMessages);
  const tc = useMessages(commonMessages);
  const client = useClient();
  const { inspection, readOnly } = props;
  const photos = inspection.photoKeys;
  const [viewing, setViewing] = useState<number | undefined>();
  const prep = usePhotoPreparation();
  const add = useAction(async (files: File[]) => {
    const urls = await prep.prepare(files, photoRoom(photos.length));
    for (const photo of urls) {
      await client.inspections.addInspectionPhoto({ inspectionId: inspection.id, photo });
    }
  });
  const remove = useAction(async (photo: string) => {
    await client.inspections.removeInspectionPhoto({ inspectionId: inspection.id, photo });
  });

  if (readOnly && photos.length === 0) return null;
  return (
    <Card title={t("photos")}>
      {photos.length === 0 ? (
        <p className="muted">{t("noPhotos")}</p>
      ) : (
        <ul className="photos">
          {photos.map((p, n) => (
            <li key={p} className="photos__item">
              <button
                type="button"
                className="photos__open"
                aria-label={t("viewPhoto", { n: n + 1 })}
                onClick={() => setViewing(n)}
              >
                <img className="photos__thumb" src={p} alt="" />
              </button>
              {!readOnly && (
                <ConfirmButton
                  label={t("removePhoto")}
                  confirm={t("removePhotoConfirm")}
                  disabled={remove.busy}
                  onConfirm={() => void remove.run(p)}
                />
              )}
            </li>
          ))}
        </ul>
      )}
      <ErrorNote error={remove.error} />
      {!readOnly && (
        <>
          <div className="form__actions">
            <PhotoFileButton
              label={t("addPhoto")}
              disabled={prep.busy || add.busy || photoRoom(photos.length) === 0}
              onFiles={(files) => void add.run(files)}
            />
          </div>
          <PhotoStatus busy={prep.busy} errors={prep.errors} room={photoRoom(photos.length)} />
          <ErrorNote error={add.error} />
        </>
      )}
      {viewing !== undefined && photos[viewing] !== undefined && (
        <PhotoViewer
          src={photos[viewing]}
          alt={t("photoAlt", { n: viewing + 1 })}
          closeLabel={tc("close")}
          onClose={() => setViewing(undefined)}
        />
      )}
    </Card>
  );
}

/** One photo large, in a modal dialog (Escape, the button or a tap beside it closes it). */
function PhotoViewer(props: {
  readonly src: string;
  readonly alt: string;
  readonly closeLabel: string;
  readonly onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a tap beside the photo closes it; keys have Escape (native) and the Close button.
    <dialog
      ref={ref}
      className="photo-viewer"
      aria-label={props.alt}
      onClose={props.onClose}
      onClick={(e) => {
        if (e.target === e.currentTarget) ref.current?.close();
      }}
    >
      <img className="photo-viewer__image" src={props.src} alt={props.alt} />
      <button
        type="button"
        className="button button--secondary photo-viewer__close"
        onClick={() => ref.current?.close()}
      >
        {props.closeLabel}
      </button>
    </dialog>
  );
}
