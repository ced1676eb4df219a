/**
 * Form controls made for gloves and sunlight: every control has a visible label tied to it,
 * touch targets of at least 48 px, and plain HTML inputs underneath (keyboard, screen readers
 * and the phone's own pickers work as usual).
 */
import "./forms.css";
import {
  type ColumnSpec,
  futureDateBreak,
  maxInt32,
  minInt32,
  type NumberRuleBreak,
  numberLimits,
  numberRuleBreak,
} from "@hivekeep/client-core/core";
import { type ReactNode, useId, useState } from "react";
import { Link } from "wouter";
import { fromLocalInput, toLocalDateInput, toLocalInput, useFormat } from "../format.ts";
import { defineMessages, useMessages } from "../i18n.ts";
import { commonMessages } from "./messages.ts";
import { ErrorNote } from "./page.tsx";

interface FieldProps {
  readonly label: string;
  readonly hint?: string;
  readonly error?: string;
  /** The id of a hint shared with other fields (shown once, beside them), read out too. */
  readonly describedBy?: string;
  readonly children: (control: FieldControl) => ReactNode;
}

/**
 * What ties a control to its field, spread onto it: the id the label names, the hint and error
 * read out with it, and invalid while the field shows an error.
 */
export interface FieldControl {
  readonly id: string;
  readonly "aria-describedby": string | undefined;
  readonly "aria-invalid": true | undefined;
}

/** A label, the control, and an optional hint or error read out with it. */
export function Field({ label, hint, error, describedBy: shared, children }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy =
    [hint ? hintId : "", shared ?? "", error ? errorId : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children({
        id,
        "aria-describedby": describedBy,
        "aria-invalid": error ? true : undefined,
      })}
      {hint && (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field__error" id={errorId} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

interface TextFieldProps {
  readonly label: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly hint?: string;
  readonly error?: string;
  readonly required?: boolean;
  readonly type?: "text" | "email" | "password" | "search" | "url";
  readonly autoComplete?: string;
  readonly maxLength?: number;
  readonly placeholder?: string;
  readonly autoFocus?: boolean;
  /** Common values offered as it is typed (free text all the same). */
  readonly suggestions?: readonly string[];
}

export function TextField(props: TextFieldProps) {
  const listId = useId();
  const suggest = props.suggestions !== undefined;
  return (
    <Field label={props.label} hint={props.hint} error={props.error}>
      {(control) => (
        <>
          <input
            {...control}
            className="input"
            type={props.type ?? "text"}
            value={props.value}
            required={props.required}
            autoComplete={suggest ? "off" : props.autoComplete}
            list={suggest ? listId : undefined}
            maxLength={props.maxLength}
            placeholder={props.placeholder}
            // biome-ignore lint/a11y/noAutofocus: only where a form opens for one field.
            autoFocus={props.autoFocus}
            onChange={(e) => props.onChange(e.target.value)}
          />
          {suggest && (
            <datalist id={listId}>
              {props.suggestions?.map((s) => (
                <option key={s} value={s} />
              ))}
            </datalist>
          )}
        </>
      )}
    </Field>
  );
}

export function TextArea(props: {
  readonly label: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly hint?: string;
  readonly rows?: number;
  readonly maxLength?: number;
}) {
  return (
    <Field label={props.label} hint={props.hint}>
      {(control) => (
        <textarea
          {...control}
          className="input input--area"
          rows={props.rows ?? 3}
          value={props.value}
          maxLength={props.maxLength}
          onChange={(e) => props.onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

/** A number as it is written in the locale, for a text field: its decimal separator, no grouping. */
export function numberInputText(value: number | undefined, locale: string): string {
  if (value === undefined) return "";
  const decimal =
    new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === "decimal")?.value ??
    ".";
  return String(value).replace(".", decimal);
}

/** A number as typed: a decimal comma or point; empty (or not a number) is `undefined`. */
export function parseNumberInput(text: string): number | undefined {
  const raw = text.trim().replace(",", ".");
  if (raw === "") return undefined;
  const n = Number(raw);
  return Number.isNaN(n) ? undefined : n;
}

/**
 * What in a number field's text is no part of a number (a letter, a unit typed in), or undefined
 * when nothing is: digits, a sign, a decimal comma or point and spaces are. The field refuses such
 * text and says so, instead of taking it and reading it as no value.
 */
export function notANumberPart(text: string): string | undefined {
  return /[^\d\s.,+-]/u.exec(text)?.[0];
}

/** The words of a broken number rule (client-core's `numberRuleBreak`), in the reader's language. */
export const numberMessages = defineMessages("forms", {
  en: {
    numberRefused: "Only digits and a decimal comma or point: “{{typed}}” was not taken.",
    numberFinite: "A number, please.",
    numberInteger: "A whole number, please.",
    numberPositive: "More than 0, please.",
    numberRange: "Between {{min}} and {{max}}, please.",
    numberMin: "At least {{min}}, please.",
    numberMax: "At most {{max}}, please.",
  },
});

/** The number rule `value` breaks in `column` (undefined: none, or no value). */
export function numberProblem(
  column: ColumnSpec,
  value: number | undefined,
): NumberRuleBreak | undefined {
  return value === undefined ? undefined : numberRuleBreak(column, value);
}

/** The words of a broken number rule, numbers formatted for the reader. */
export function useNumberRuleText(): (broken: NumberRuleBreak) => string {
  const t = useMessages(numberMessages);
  const fmt = useFormat();
  return (broken) => {
    switch (broken.rule) {
      case "finite":
        return t("numberFinite");
      case "integer":
        return t("numberInteger");
      case "int32":
        return t("numberRange", { min: fmt.number(minInt32, 0), max: fmt.number(maxInt32, 0) });
      case "positive":
        return t("numberPositive");
      case "range": {
        const min = broken.min === undefined ? undefined : fmt.number(broken.min, 6);
        const max = broken.max === undefined ? undefined : fmt.number(broken.max, 6);
        if (min !== undefined && max !== undefined) return t("numberRange", { min, max });
        return min !== undefined ? t("numberMin", { min }) : t("numberMax", { max: max ?? "" });
      }
    }
  };
}

/** Two numbers as the same field value (undefined alike, NaN alike). */
const sameNumber = (a: number | undefined, b: number | undefined): boolean =>
  Object.is(a, b) || (a !== undefined && b !== undefined && a === b);

/**
 * A number typed in; empty is `undefined`. Shown with the reader's decimal separator; a decimal
 * comma or point is accepted either way (German keyboards). Controlled: a new `value` from
 * outside (a location filled in) replaces what is shown; what is typed stays as typed while it
 * means the value (a trailing "," or "0").
 *
 * `column` (see `columnSpec`) gives the field the value rules of a registry column: once the
 * field was left, or when the form asks (`showProblem`), it shows the rule the value breaks, in
 * the words of `useNumberRuleText`. `error` (the form's own verdict) is shown instead when set.
 */
export function NumberField(props: {
  readonly label: string;
  readonly value: number | undefined;
  readonly onChange: (value: number | undefined) => void;
  readonly hint?: string | undefined;
  /** The id of a hint shared with other fields. */
  readonly describedBy?: string;
  readonly error?: string | undefined;
  readonly unit?: string;
  /** The registry column whose rules (range, whole numbers) the field applies. */
  readonly column: ColumnSpec;
  /** Show the rule the value breaks before the field was left (after a refused submit). */
  readonly showProblem?: boolean;
  readonly required?: boolean;
}) {
  const { locale } = useFormat();
  const ruleText = useNumberRuleText();
  const tn = useMessages(numberMessages);
  const [text, setText] = useState(() => numberInputText(props.value, locale));
  const [left, setLeft] = useState(false);
  /** The last character refused (a letter), said until the next text the field takes. */
  const [refused, setRefused] = useState<string | undefined>();
  const shown = sameNumber(parseNumberInput(text), props.value)
    ? text
    : numberInputText(props.value, locale);
  const problem = numberProblem(props.column, props.value);
  const error =
    (refused !== undefined ? tn("numberRefused", { typed: refused }) : undefined) ??
    props.error ??
    (problem && (left || props.showProblem) ? ruleText(problem) : undefined);
  return (
    <Field label={props.label} hint={props.hint} describedBy={props.describedBy} error={error}>
      {(control) => (
        <span className="input-unit">
          <input
            {...control}
            className="input"
            type="text"
            inputMode="decimal"
            required={props.required}
            value={shown}
            onChange={(e) => {
              const wrong = notANumberPart(e.target.value);
              setRefused(wrong);
              if (wrong !== undefined) return;
              setText(e.target.value);
              props.onChange(parseNumberInput(e.target.value));
            }}
            onBlur={() => setLeft(true)}
          />
          {props.unit && <span className="input-unit__unit">{props.unit}</span>}
        </span>
      )}
    </Field>
  );
}

export interface Option<V extends string | number> {
  readonly value: V;
  readonly label: string;
}

export function SelectField<V extends string | number>(props: {
  readonly label: string;
  readonly value: V;
  readonly options: readonly Option<V>[];
  readonly onChange: (value: V) => void;
  readonly hint?: string;
  readonly error?: string;
  readonly required?: boolean;
}) {
  return (
    <Field label={props.label} hint={props.hint} error={props.error}>
      {(control) => (
        <select
          {...control}
          className="input"
          value={String(props.value)}
          required={props.required}
          onChange={(e) => {
            const found = props.options.find((o) => String(o.value) === e.target.value);
            if (found) props.onChange(found.value);
          }}
        >
          {props.options.map((o) => (
            <option key={String(o.value)} value={String(o.value)}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/**
 * Whether a date that says something happened lies in the future: client-core's one rule
 * (`futureDateBreak`, a day of tolerance), which the operations apply too.
 */
export function happenedInFuture(date: Date | undefined, now: Date): boolean {
  return date !== undefined && futureDateBreak("date", date.toISOString(), now) !== undefined;
}

/**
 * Date and time (local); empty is `undefined`. `dateOnly` for a calendar day. `happenedBy`
 * (now) makes it the date of something that happened: the picker stops at today and a future
 * date is said to be one at once (the form refuses it with `happenedInFuture`).
 */
export function DateField(props: {
  readonly label: string;
  readonly value: Date | undefined;
  readonly onChange: (value: Date | undefined) => void;
  readonly hint?: string;
  readonly error?: string | undefined;
  readonly dateOnly?: boolean;
  readonly required?: boolean;
  readonly happenedBy?: Date;
}) {
  const tc = useMessages(commonMessages);
  const toInput = props.dateOnly ? toLocalDateInput : toLocalInput;
  const now = props.happenedBy;
  const endOfToday =
    now && new Date(now.getFullYear(), now.getMonth(), now.getDate(), 23, 59, 59, 999);
  const future = now !== undefined && happenedInFuture(props.value, now);
  const error = props.error ?? (future ? tc("dateInFuture") : undefined);
  return (
    <Field label={props.label} hint={props.hint} error={error}>
      {(control) => (
        <input
          {...control}
          className="input"
          type={props.dateOnly ? "date" : "datetime-local"}
          required={props.required}
          max={endOfToday ? toInput(endOfToday) : undefined}
          value={props.value ? toInput(props.value) : ""}
          onChange={(e) => props.onChange(fromLocalInput(e.target.value))}
        />
      )}
    </Field>
  );
}

/**
 * A big minus / value / plus control for counts (frames, boxes, queen cells). `undefined` says
 * "not recorded" in words until the first tap (a stepper never invents a value the beekeeper did
 * not give; a "—" there read as a minus beside the minus button). Clearing a value is a worded
 * button at the row's far end, apart from plus and minus (a "×" beside "+" was hit for it). It
 * stays within the registry column's range (`column`, see `columnSpec`); `min` raises the lowest
 * value it offers (1 where 0 means "not set").
 */
export function Stepper(props: {
  readonly label: string;
  readonly value: number | undefined;
  readonly onChange: (value: number | undefined) => void;
  readonly column: ColumnSpec;
  readonly min?: number;
  /** Where the first tap of + starts. */
  readonly start?: number;
}) {
  const t = useMessages(commonMessages);
  const limits = numberLimits(props.column);
  const min = Math.max(props.min ?? 0, limits.min ?? 0);
  const max = limits.max ?? 99;
  const step = 1;
  const v = props.value;
  const set = (n: number) => props.onChange(Math.min(max, Math.max(min, n)));
  return (
    <fieldset className="stepper">
      <legend className="stepper__label">{props.label}</legend>
      <div className="stepper__row">
        <button
          type="button"
          className="stepper__button"
          aria-label={t("decrease", { what: props.label })}
          disabled={v === undefined || v <= min}
          onClick={() => v !== undefined && set(v - step)}
        >
          −
        </button>
        <output
          className={v === undefined ? "stepper__value stepper__value--empty" : "stepper__value"}
          aria-live="polite"
        >
          {v === undefined ? t("notRecorded") : v}
        </output>
        <button
          type="button"
          className="stepper__button"
          aria-label={t("increase", { what: props.label })}
          disabled={v !== undefined && v >= max}
          onClick={() => set(v === undefined ? (props.start ?? min) : v + step)}
        >
          +
        </button>
        {v !== undefined && (
          <button
            type="button"
            className="button button--small button--secondary stepper__clear"
            aria-label={t("clear", { what: props.label })}
            onClick={() => props.onChange(undefined)}
          >
            {t("clearValue")}
          </button>
        )}
      </div>
    </fieldset>
  );
}

/** A large on/off switch (a checkbox underneath). */
export function Toggle(props: {
  readonly label: string;
  readonly checked: boolean;
  readonly onChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <label className="toggle" htmlFor={id}>
      <input
        id={id}
        type="checkbox"
        role="switch"
        aria-checked={props.checked}
        className="toggle__input"
        checked={props.checked}
        onChange={(e) => props.onChange(e.target.checked)}
      />
      <span className="toggle__track" aria-hidden="true" />
      <span className="toggle__label">{props.label}</span>
    </label>
  );
}

/** One choice of a few, as big buttons (stores, temperament); "not set" is one of them. */
export function Choice<V extends string | number>(props: {
  readonly label: string;
  readonly value: V | undefined;
  readonly options: readonly Option<V>[];
  readonly onChange: (value: V | undefined) => void;
}) {
  const name = useId();
  return (
    <fieldset className="choice">
      <legend className="choice__label">{props.label}</legend>
      <div className="choice__row">
        {props.options.map((o) => (
          <label key={String(o.value)} className="choice__option">
            <input
              type="radio"
              className="choice__input"
              name={name}
              checked={props.value === o.value}
              onChange={() => props.onChange(o.value)}
            />
            <span>{o.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * After a refused submit: the first field marked invalid gets the focus (and is scrolled to;
 * it may be far up a long form), once the errors are drawn.
 */
export function focusFirstInvalid(form: HTMLFormElement): void {
  requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
}

/**
 * The end of a form: what went wrong with the last save, the submit button ("Saving…" while it
 * runs) and, given where to go back to, a Cancel link.
 *
 *   <FormFooter action={save} label={t("saveTask")} big />
 */
export function FormFooter(props: {
  readonly action: { readonly busy: boolean; readonly error: unknown };
  readonly label: string;
  /** The big submit button of a form filled at the hive. */
  readonly big?: boolean;
  readonly cancel?: string;
}) {
  const tc = useMessages(commonMessages);
  const { busy, error } = props.action;
  return (
    <>
      <ErrorNote error={error} />
      <div className="form__actions">
        <button
          type="submit"
          className={props.big ? "button button--primary button--big" : "button button--primary"}
          disabled={busy}
        >
          {busy ? tc("saving") : props.label}
        </button>
        {props.cancel !== undefined && (
          <Link href={props.cancel} className="button button--secondary">
            {tc("cancel")}
          </Link>
        )}
      </div>
    </>
  );
}
