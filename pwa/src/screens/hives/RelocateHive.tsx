/**
 * Move a hive to another apiary (`/hives/:id/relocate`): the target and the date of the move
 * (now by default, or back-dated; never in the future, the picker offers no day after today);
 * RelocateHive closes the current stay and opens the new one.
 */
import { useState } from "react";
import { Link, useLocation, useParams } from "wouter";
import { useClient, useReadOnly } from "../../app/client.tsx";
import { useNow } from "../../app/now.tsx";
import { paths } from "../../app/paths.ts";
import { toTimestamp, useFormat } from "../../format.ts";
import { useMessages } from "../../i18n.ts";
import { DateField, FormFooter, focusFirstInvalid, happenedInFuture } from "../../ui/forms.tsx";
import { commonMessages } from "../../ui/messages.ts";
import { LiveView, Page, ReadOnlyPage, useAction } from "../../ui/page.tsx";
import { hiveMessages } from "./messages.ts";
import { ApiarySelect } from "./parts.tsx";
import { type RelocateData, useRelocateHive } from "./queries.ts";

export default function RelocateHive() {
  const { id } = useParams<{ id: string }>();
  return (
    <LiveView live={useRelocateHive(id)} back={paths.hives}>
      {(data) => <Form {...data} />}
    </LiveView>
  );
}

function Form(props: RelocateData) {
  const t = useMessages(hiveMessages);
  const tc = useMessages(commonMessages);
  const fmt = useFormat();
  const client = useClient();
  const readOnly = useReadOnly();
  const [, navigate] = useLocation();
  const { hive, apiaries, arrived } = props;
  const others = apiaries.filter((a) => a.id !== hive.apiaryId);
  const [target, setTarget] = useState(others.length === 1 ? (others[0]?.id ?? "") : "");
  const now = useNow();
  const [date, setDate] = useState<Date | undefined>(now);
  const [targetError, setTargetError] = useState<string | undefined>();
  const [dateError, setDateError] = useState<string | undefined>();
  const move = useAction(async (when: Date) => {
    await client.hives.relocateHive({
      id: hive.id,
      targetApiaryId: target,
      date: toTimestamp(when),
    });
    navigate(paths.hive(hive.id), { replace: true });
  });

  const back = paths.hive(hive.id);
  const here = apiaries.find((a) => a.id === hive.apiaryId)?.name ?? t("unknownApiary");
  const title = `${t("relocateTitle")}${tc("labelSeparator")}${hive.name}`;
  if (readOnly) return <ReadOnlyPage title={title} back={back} />;
  return (
    <Page title={title} back={back}>
      <p>
        {arrived
          ? t("nowAtSince", { apiary: here, date: fmt.date(arrived) })
          : t("nowAt", { apiary: here })}
      </p>
      {others.length === 0 ? (
        <div className="notice notice--info">
          <p className="notice__text">{t("noOtherApiary")}</p>
          <Link href={paths.newApiary} className="button">
            {t("createApiary")}
          </Link>
        </div>
      ) : (
        <form
          className="form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            const noTarget = target === "";
            const early = date !== undefined && arrived !== undefined && date < arrived;
            const dateProblem =
              date === undefined
                ? t("moveDateRequired")
                : early
                  ? t("moveDateTooEarly", { date: fmt.dateTime(arrived) })
                  : happenedInFuture(date, now)
                    ? t("dateInFuture")
                    : undefined;
            setTargetError(noTarget ? t("targetRequired") : undefined);
            setDateError(dateProblem);
            if (noTarget || date === undefined || dateProblem) focusFirstInvalid(e.currentTarget);
            else void move.run(date);
          }}
        >
          <ApiarySelect
            label={t("target")}
            value={target}
            apiaries={others}
            onChange={setTarget}
            error={targetError}
          />
          <DateField
            label={t("moveDate")}
            hint={t("moveDateHint")}
            value={date}
            onChange={setDate}
            required
            happenedBy={now}
            error={dateError}
          />
          <FormFooter action={move} label={t("move")} cancel={back} />
        </form>
      )}
    </Page>
  );
}
