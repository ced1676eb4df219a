/**
 * A queen: a new one for a hive (`/hives/:id/queen`; CreateQueen replaces the reigning queen,
 * who is marked replaced at the new one's introduction) or an edit (`/queens/:queenId/edit`;
 * UpdateQueen overwrites every field, so the whole record is sent back with the changes; the
 * edit also deletes her, saying who reigns after her). Her year and introduction happened: not
 * in the future.
 */

import { columnSpec, defaultMarking, latestQueenYear } from "@hivekeep/client-core/core";
import type { MarkingColor } from "@hivekeep/proto";
import { useState } from "react";
import { useLocation, useParams } from "wouter";
import { useClient, useReadOnly } from "../../app/client.tsx";
import { useNow } from "../../app/now.tsx";
import { paths } from "../../app/paths.ts";
import { toDate, toTimestamp, useFormat } from "../../format.ts";
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
import { commonMessages, label } from "../../ui/messages.ts";
import { LiveView, MarkingDot, Page, ReadOnlyPage, useAction } from "../../ui/page.tsx";
import { recordMessages } from "./messages.ts";
import { HiveLine, MarkingChoice } from "./parts.tsx";
import { type QueenFormData, useQueenForm } from "./queries.ts";
import { DeleteQueen } from "./RecordDelete.tsx";
import { beforeReign, validQueenYear } from "./rules.ts";

export default function QueenForm() {
  const { id, queenId } = useParams<{ id?: string; queenId?: string }>();
  const form = useQueenForm(queenId !== undefined ? { queenId } : { hiveId: id ?? "" });
  return (
    <LiveView live={form} back={paths.hives}>
      {(data) => (
        // Keyed by the queen or the hive: another one's form starts afresh instead of keeping
        // the last one's values.
        <Form key={data.queen ? `queen:${data.queen.id}` : `hive:${data.hive?.id}`} {...data} />
      )}
    </LiveView>
  );
}

function Form(props: QueenFormData) {
  const t = useMessages(recordMessages);
  const tc = useMessages(commonMessages);
  const fmt = useFormat();
  const now = useNow();
  const client = useClient();
  const readOnly = useReadOnly();
  const [, navigate] = useLocation();
  const q = props.queen;
  const hiveId = q?.hiveId ?? props.hive?.id ?? "";
  const thisYear = now.getFullYear();

  const [year, setYear] = useState<number | undefined>(q ? q.year : thisYear);
  const [marking, setMarking] = useState<MarkingColor>(q ? q.marking : defaultMarking(thisYear));
  // The marking follows the year until the beekeeper picks another colour.
  const [followsYear, setFollowsYear] = useState(q ? q.marking === defaultMarking(q.year) : true);
  const [origin, setOrigin] = useState(q?.origin ?? "");
  const [breederNumber, setBreederNumber] = useState(q?.breederNumber ?? "");
  const [introducedAt, setIntroducedAt] = useState<Date | undefined>(
    q ? toDate(q.introducedAt) : now,
  );
  const [note, setNote] = useState(q?.note ?? "");
  const [yearError, setYearError] = useState<string | undefined>();
  const [dateError, setDateError] = useState<string | undefined>();

  const changeYear = (y: number | undefined) => {
    setYear(y);
    if (followsYear && y !== undefined && Number.isInteger(y)) setMarking(defaultMarking(y));
  };
  const changeMarking = (m: MarkingColor) => {
    setMarking(m);
    setFollowsYear(year !== undefined && m === defaultMarking(year));
  };

  const save = useAction(async (y: number, at: Date) => {
    const fields = {
      year: y,
      marking,
      origin: origin.trim(),
      breederNumber: breederNumber.trim(),
      introducedAt: toTimestamp(at),
      note: note.trim(),
    };
    if (q) await client.queens.updateQueen({ queen: { ...q, ...fields } });
    else await client.queens.createQueen({ hiveId, ...fields });
    navigate(paths.hive(hiveId), { replace: true });
  });

  const title = q ? t("editQueen") : props.reigning ? t("replaceQueen") : t("newQueen");
  const back = hiveId ? paths.hive(hiveId) : paths.hives;
  if (readOnly) return <ReadOnlyPage title={title} back={back} />;
  const validYear = validQueenYear(year, now);
  return (
    <Page title={title} back={back}>
      {props.hive && <HiveLine hive={props.hive} />}
      {props.reigning && (
        <p className="notice notice--warn">
          <MarkingDot marking={props.reigning.marking} large />
          <span className="notice__text">
            {t("replacesNotice", {
              year: props.reigning.year,
              marking: label.marking(tc, props.reigning.marking),
            })}
          </span>
        </p>
      )}
      {q && (
        <p className="muted">
          {q.active ? t("reigning") : t("replacedOn", { date: fmt.date(q.replacedAt) })}
        </p>
      )}
      <form
        className="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const yearOk = validQueenYear(year, now);
          setYearError(
            yearOk
              ? undefined
              : t("yearInvalid", { max: latestQueenYear(now), example: now.getFullYear() }),
          );
          const early = introducedAt && !q && beforeReign(introducedAt, props.reigning);
          const future = happenedInFuture(introducedAt, now);
          setDateError(
            !introducedAt
              ? t("introducedRequired")
              : early
                ? t("introducedBeforeReign", { date: fmt.dateTime(props.reigning?.introducedAt) })
                : undefined,
          );
          if (yearOk && introducedAt && !early && !future) void save.run(year, introducedAt);
          else focusFirstInvalid(e.currentTarget);
        }}
      >
        <div className="form__row">
          <NumberField
            label={t("year")}
            value={year}
            onChange={changeYear}
            hint={t("yearHint")}
            column={columnSpec("queen", "year")}
            error={yearError}
            required
          />
          <div>
            <DateField
              label={t("introducedAt")}
              value={introducedAt}
              onChange={setIntroducedAt}
              happenedBy={now}
              required
            />
            {dateError && (
              <p className="field__error" role="alert">
                {dateError}
              </p>
            )}
          </div>
        </div>
        <MarkingChoice
          label={t("marking")}
          value={marking}
          onChange={changeMarking}
          hint={
            validYear
              ? t("markingHint", { year, colour: label.marking(tc, defaultMarking(year)) })
              : undefined
          }
        />
        <div className="form__row">
          <TextField
            label={t("origin")}
            value={origin}
            onChange={setOrigin}
            hint={t("originHint")}
          />
          <TextField label={t("breederNumber")} value={breederNumber} onChange={setBreederNumber} />
        </div>
        <TextArea label={t("note")} value={note} onChange={setNote} />
        <FormFooter action={save} label={t("saveQueen")} big />
      </form>
      {q && <DeleteQueen queen={q} queens={props.queens ?? []} />}
    </Page>
  );
}
