/** Small pieces the hive screens share. */
import "./parts.css";
import { type Apiary, HiveStatus, type Queen } from "@hivekeep/proto";
import { useFormat } from "../../format.ts";
import { useMessages } from "../../i18n.ts";
import { SelectField } from "../../ui/forms.tsx";
import { commonMessages, label } from "../../ui/messages.ts";
import { MarkingDot } from "../../ui/page.tsx";
import { useShowAll } from "../../ui/show-all.tsx";
import { isInactive } from "./hive-logic.ts";
import { hiveMessages } from "./messages.ts";
import type { Words } from "./present.ts";

/**
 * A hive's status as a badge: green while the colony is kept, a warning while it is queenless
 * (it needs the beekeeper), plain once lost or dissolved.
 */
export function HiveStatusBadge(props: { readonly status: HiveStatus }) {
  const tc = useMessages(commonMessages);
  const kind = isInactive(props.status)
    ? "badge"
    : props.status === HiveStatus.QUEENLESS
      ? "badge badge--warn"
      : "badge badge--ok";
  return <span className={kind}>{label.hiveStatus(tc, props.status)}</span>;
}

/** A queen as "● 2025 · Blue": the marking colour as a dot and by name (never by colour alone). */
export function QueenMark(props: { readonly queen: Queen | undefined }) {
  const t = useMessages(hiveMessages);
  const tc = useMessages(commonMessages);
  const q = props.queen;
  if (q === undefined) return <span className="hive-queen hive-queen--none">{t("noQueen")}</span>;
  return (
    <span className="hive-queen">
      <MarkingDot marking={q.marking} />
      <span>
        {t("queenYear", { year: q.year })} · {label.marking(tc, q.marking)}
      </span>
    </span>
  );
}

/** Which apiary a hive stands at (or moves to): "Choose an apiary" until one is chosen. */
export function ApiarySelect(props: {
  readonly label: string;
  readonly value: string;
  readonly apiaries: readonly Apiary[];
  readonly onChange: (id: string) => void;
  readonly error?: string;
}) {
  const t = useMessages(hiveMessages);
  return (
    <SelectField
      label={props.label}
      value={props.value}
      required
      options={[
        ...(props.value === "" ? [{ value: "", label: t("chooseApiary") }] : []),
        ...props.apiaries.map((a) => ({ value: a.id, label: a.name })),
      ]}
      onChange={props.onChange}
      error={props.error}
    />
  );
}

/** The words and formats the hive page's texts are made of (present.ts), in the current language. */
export function useWords(): Words {
  return { t: useMessages(hiveMessages), tc: useMessages(commonMessages), fmt: useFormat() };
}

/** How many rows a section of the hive page shows before "Show all". */
const firstRows = 10;

/** A hive page section's first rows and its small "Show all (n)" button (gone once all show). */
export function useSectionRows<X>(rows: readonly X[]) {
  const t = useMessages(hiveMessages);
  return useShowAll(rows, firstRows, {
    all: t("showAll", { count: rows.length }),
    className: "button button--secondary button--small",
  });
}
