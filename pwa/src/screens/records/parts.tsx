/** Small pieces the record forms share: the marking colour choice, the hive line and the page of a hive's new record. */
import "./parts.css";
import type { Hive, MarkingColor } from "@hivekeep/proto";
import { type ReactNode, useId } from "react";
import { type Live, useReadOnly } from "../../app/client.tsx";
import { paths } from "../../app/paths.ts";
import { useMessages } from "../../i18n.ts";
import { commonMessages, label, markings } from "../../ui/messages.ts";
import { LiveView, MarkingDot, Page, ReadOnlyPage } from "../../ui/page.tsx";
import { recordMessages } from "./messages.ts";
import { useHiveApiary } from "./queries.ts";

/** The five marking colours as big radio buttons, each with its dot and its name. */
export function MarkingChoice(props: {
  readonly label: string;
  readonly value: MarkingColor;
  readonly onChange: (value: MarkingColor) => void;
  readonly hint?: string;
}) {
  const tc = useMessages(commonMessages);
  const name = useId();
  const hintId = `${name}-hint`;
  return (
    <fieldset className="choice" aria-describedby={props.hint ? hintId : undefined}>
      <legend className="choice__label">{props.label}</legend>
      <div className="choice__row">
        {markings.map((m) => (
          <label key={m} className="choice__option records-marking">
            <input
              type="radio"
              className="choice__input"
              name={name}
              checked={props.value === m}
              onChange={() => props.onChange(m)}
            />
            <MarkingDot marking={m} large />
            <span>{label.marking(tc, m)}</span>
          </label>
        ))}
      </div>
      {props.hint && (
        <p className="field__hint" id={hintId}>
          {props.hint}
        </p>
      )}
    </fieldset>
  );
}

/** Which hive a record is for, under the form's heading: "Hive 3 · Home". */
export function HiveLine(props: { readonly hive: Hive }) {
  const t = useMessages(recordMessages);
  const apiary = useHiveApiary(props.hive.apiaryId);
  return (
    <p className="muted records-hiveline">
      {apiary.status === "ready"
        ? t("hiveAt", { hive: props.hive.name, apiary: apiary.value.name })
        : props.hive.name}
    </p>
  );
}

/**
 * The page of a new record for the hive the route names (`/hives/:id/…`), once the form's data
 * (the hive, and what else the form needs) is read: the hive's line under the title, then the
 * form, keyed by the hive so another hive's form starts afresh. A read-only session gets the
 * read-only page instead.
 *
 *   <HiveRecordPage title={t("newHarvest")} live={useHarvestForm(id)}>
 *     {(data) => <Form hive={data.hive} treatments={data.treatments} />}
 *   </HiveRecordPage>
 */
export function HiveRecordPage<T extends { readonly hive: Hive }>(props: {
  readonly title: string;
  readonly live: Live<T>;
  readonly children: (value: T) => ReactNode;
}) {
  const readOnly = useReadOnly();
  return (
    <LiveView live={props.live} back={paths.hives}>
      {(value) =>
        readOnly ? (
          <ReadOnlyPage title={props.title} back={paths.hive(value.hive.id)} />
        ) : (
          <Page key={value.hive.id} title={props.title} back={paths.hive(value.hive.id)}>
            <HiveLine hive={value.hive} />
            {props.children(value)}
          </Page>
        )
      }
    </LiveView>
  );
}
