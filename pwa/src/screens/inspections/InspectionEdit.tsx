/**
 * The inspection form in edit mode (`/inspections/:id/edit`): the same cards as a new
 * inspection, started from what the inspection recorded, so a typo or a wrong date is corrected
 * in place. UpdateInspection overwrites the fields of the message (the whole record is sent back
 * with the changes; the operation records only what changed). Photos stay with the photo
 * operations on the inspection's page. Written to the device; syncs later.
 */
import "./inspection-form.css";
import type { Inspection } from "@hivekeep/proto";
import { useState } from "react";
import { useLocation, useParams } from "wouter";
import { useClient, useReadOnly } from "../../app/client.tsx";
import { useNow } from "../../app/now.tsx";
import { paths } from "../../app/paths.ts";
import { toDate, toTimestamp } from "../../format.ts";
import { useMessages } from "../../i18n.ts";
import {
  DateField,
  FormFooter,
  focusFirstInvalid,
  happenedInFuture,
  TextArea,
} from "../../ui/forms.tsx";
import { Card, LiveView, Page, ReadOnlyPage, useAction } from "../../ui/page.tsx";
import { draftOf, type InspectionDraft, invalidMeasurements, toCreateFields } from "./fields.ts";
import {
  ColonyCard,
  type DraftSetter,
  MeasurementsCard,
  ObservationsCard,
  WeatherCard,
} from "./InspectionCards.tsx";
import { inspectionMessages } from "./messages.ts";
import { type InspectionPageData, useInspectionPage } from "./queries.ts";

export default function InspectionEdit() {
  const { id } = useParams<{ id: string }>();
  return (
    <LiveView live={useInspectionPage(id)} back={paths.hives}>
      {(data) => (
        // Mounted once: a sync arriving while the beekeeper corrects it does not overwrite the
        // form. Keyed by the inspection: another one's edit starts afresh.
        <Edit key={data.inspection.id} {...data} />
      )}
    </LiveView>
  );
}

function Edit({ inspection, hive }: InspectionPageData) {
  const t = useMessages(inspectionMessages);
  const now = useNow();
  const client = useClient();
  const readOnly = useReadOnly();
  const [, navigate] = useLocation();
  const [start] = useState<Inspection>(inspection);
  const [draft, setDraft] = useState<InspectionDraft>(() => draftOf(start));
  const set: DraftSetter = (key) => (value) => setDraft((d) => ({ ...d, [key]: value }));
  const [showErrors, setShowErrors] = useState(false);

  const save = useAction(async (date: Date) => {
    await client.inspections.updateInspection({
      inspection: { ...start, ...toCreateFields(draft), date: toTimestamp(date) },
    });
    navigate(paths.inspection(start.id), { replace: true });
  });

  const title = hive ? t("editTitle", { hive: hive.name }) : t("editTitleNoHive");
  const back = paths.inspection(start.id);
  if (readOnly) return <ReadOnlyPage title={title} back={back} />;

  return (
    <Page title={title} back={back}>
      <form
        className="form inspection-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          // Left empty, the date stays as it was.
          const date = draft.date ?? toDate(start.date) ?? now;
          const ok = invalidMeasurements(draft).length === 0 && !happenedInFuture(date, now);
          setShowErrors(!ok);
          if (ok) void save.run(date);
          else focusFirstInvalid(e.currentTarget);
        }}
      >
        <Card>
          <DateField
            label={t("date")}
            value={draft.date}
            onChange={set("date")}
            happenedBy={now}
            required
          />
        </Card>
        <ObservationsCard draft={draft} set={set} />
        <ColonyCard draft={draft} set={set} />
        <WeatherCard draft={draft} set={set} />
        <MeasurementsCard draft={draft} set={set} showProblems={showErrors} />
        <Card>
          <TextArea label={t("note")} value={draft.note} onChange={set("note")} rows={3} />
          <p className="muted">{t("photosStay")}</p>
        </Card>
        <FormFooter action={save} label={t("saveChanges")} big cancel={back} />
      </form>
    </Page>
  );
}
