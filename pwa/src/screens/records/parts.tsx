/** Small pieces the record forms share: the marking colour choice, the hive line and the hive a route names. */
import "./parts.css";
import type { Hive, MarkingColor } from "@hivekeep/proto";
import { type ComponentType, useId } from "react";
import { useParams } from "wouter";
import { useReadOnly } from "../../app/client.tsx";
import { paths } from "../../app/paths.ts";
import { useMessages } from "../../i18n.ts";
import { commonMessages, label, markings } from "../../ui/messages.ts";
import { LiveView, MarkingDot, Page, ReadOnlyPage } from "../../ui/page.tsx";
import { recordMessages } from "./messages.ts";
import { useHiveApiary, useRecordHive } from "./queries.ts";

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
 * The hive a route names (`/hives/:id/…`): undefined while loading, null when it is not here.
 * A failure to read the replica goes to the error boundary (it is not "not here").
 */
export function useHive(id: string): Hive | null | undefined {
  const hive = useRecordHive(id);
  switch (hive.status) {
    case "loading":
      return undefined;
    case "not-found":
      return null;
    case "failed":
      throw hive.error;
    case "ready":
      return hive.value;
  }
}

/**
 * The page of a new record for the hive the route names (`/hives/:id/…`), once the hive is read:
 * its line under the title, then the form, keyed by the hive so another hive's form starts
 * afresh. A read-only session gets the read-only page instead.
 */
export function HiveRecordPage(props: {
  readonly title: string;
  readonly form: ComponentType<{ hive: Hive }>;
}) {
  const { id } = useParams<{ id: string }>();
  const hive = useRecordHive(id);
  const readOnly = useReadOnly();
  return (
    <LiveView live={hive} back={paths.hives}>
      {(h) =>
        readOnly ? (
          <ReadOnlyPage title={props.title} back={paths.hive(h.id)} />
        ) : (
          <Page key={h.id} title={props.title} back={paths.hive(h.id)}>
            <HiveLine hive={h} />
            <props.form hive={h} />
          </Page>
        )
      }
    </LiveView>
  );
}
