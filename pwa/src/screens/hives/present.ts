/**
 * What the hive screens say, as text (pure: no React, no replica): an inspection's summary and
 * its readings line, "on 19 Nov 2026 (4 days ago)", a stay at an apiary, a status change. The
 * words come from the screen's messages (`useMessages(hiveMessages)`, `useMessages(commonMessages)`)
 * and the numbers and dates from `useFormat()`; a component hands them in as `Words`.
 */
import { isReading } from "@hivekeep/client-core/core";
import type { ReadingColumns } from "@hivekeep/client-core/ops";
import { type Event, EventType, type HiveStatus, type Inspection } from "@hivekeep/proto";
import type { Format, When } from "../../format.ts";
import { label } from "../../ui/messages.ts";
import { type Reading, readingsOf, readingValue } from "../inspections/present.ts";
import { movedEnds, type Stay, statusChange } from "./hive-logic.ts";
import type { HiveWords } from "./messages.ts";

/** The shared words (`useMessages(commonMessages)`), as the `label` helpers take them. */
export type CommonWords = Parameters<typeof label.stores>[0];

/** What every text here is made of. */
export interface Words {
  readonly t: HiveWords;
  readonly tc: CommonWords;
  readonly fmt: Format;
}

/** A few words on an inspection for its row in the history and the timeline. */
export function inspectionSummary(i: Inspection, { t, tc, fmt }: Words): string {
  const parts: string[] = [];
  if (isReading(i)) {
    parts.push(t("measurementOnly"));
  } else {
    if (i.queenSeen) parts.push(t("queenSeen"));
    if (i.eggsSeen) parts.push(t("eggsSeen"));
    if (i.broodFrames > 0) parts.push(`${t("broodFrames")} ${fmt.number(i.broodFrames)}`);
    if (i.stores !== 0)
      parts.push(`${t("stores")}${tc("labelSeparator")}${label.stores(tc, i.stores)}`);
  }
  if (i.weightKg !== 0) parts.push(fmt.kg(i.weightKg));
  return parts.join(" · ");
}

const readingLabel = {
  weight: { hive: "weight", outside: "weight" },
  temperature: { hive: "tempHive", outside: "tempOutside" },
  humidity: { hive: "humidityHive", outside: "humidityOutside" },
} as const satisfies Record<Reading["kind"], Record<Reading["place"], string>>;

/**
 * The measurements of an inspection in one line ("Weight 42.5 kg · In the hive 34.5°C · Weather:
 * Sunny"); without the weight when it is shown elsewhere (among a colony check's facts).
 */
export function readingsLine(
  i: Inspection,
  { t, tc, fmt }: Pick<Words, "t" | "tc" | "fmt">,
  options: { readonly withWeight: boolean } = { withWeight: true },
): string {
  const parts = readingsOf(i)
    .filter((r) => options.withWeight || r.kind !== "weight")
    .map((r) => `${t(readingLabel[r.kind][r.place])} ${readingValue(fmt, r)}`);
  if (i.weather.trim() !== "") parts.push(`${t("weather")}${tc("labelSeparator")}${i.weather}`);
  return parts.join(" · ");
}

/** "19 Nov 2026 (4 days ago)": a date and how long ago it was, from `now`. */
export function onDate(when: When, now: Date, { t, fmt }: Pick<Words, "t" | "fmt">): string {
  return t("onDate", { date: fmt.date(when), when: fmt.relativeDays(when, now) });
}

/** When a hive stood at an apiary: "Since 3 May 2026", "Until …", "3 May 2026 – 9 Jun 2026". */
export function stayText(s: Stay, { t, fmt }: Pick<Words, "t" | "fmt">): string {
  if (s.until === undefined) return t("since", { date: fmt.date(s.from) });
  if (s.from === undefined) return t("until", { date: fmt.date(s.until) });
  return t("fromTo", { from: fmt.date(s.from), to: fmt.date(s.until) });
}

/** A STATUS or DISSOLVED event's change ("Active → Lost"), when it says one. */
export function statusChangeText(e: Pick<Event, "detailJson">, tc: CommonWords): string | null {
  const change = statusChange(e.detailJson);
  if (change === undefined) return null;
  const name = (s: number) => label.hiveStatus(tc, s as HiveStatus);
  return `${name(change.from)} → ${name(change.to)}`;
}

/**
 * The apiaries a hive's page names: where it stands, and every apiary its CREATED and MOVED
 * events mention (its placement history and timeline), as `placementHistory` and the timeline
 * read them. Empty ids are left out.
 */
export function apiaryIdsOf(
  hive: { readonly apiaryId: string },
  events: readonly Event[],
): string[] {
  const ids = new Set<string>([hive.apiaryId]);
  for (const e of events) {
    if (e.type === EventType.CREATED) ids.add(e.apiaryId);
    if (e.type === EventType.MOVED) {
      const { from, to } = movedEnds(e.detailJson);
      ids.add(from);
      ids.add(to || e.apiaryId);
    }
  }
  ids.delete("");
  return [...ids];
}

/** The newest value of each measurement among a hive's readings (undefined: never measured). */
export interface LatestValues {
  /** Unix ms of the newest reading: the scale's last contact. */
  readonly at: number | undefined;
  readonly weightKg: number | undefined;
  readonly tempHive: number | undefined;
  readonly tempOutside: number | undefined;
  readonly humidityHive: number | undefined;
  readonly humidityOutside: number | undefined;
}

/** Each measurement's newest value (a 0 is "not measured"), and when the scale last reported. */
export function latestValues(r: ReadingColumns): LatestValues {
  const newest = (values: readonly number[]): number | undefined => {
    for (let i = values.length - 1; i >= 0; i--) {
      const v = values[i];
      if (v !== undefined && v !== 0) return v;
    }
    return undefined;
  };
  return {
    at: r.at.at(-1),
    weightKg: newest(r.weightKg),
    tempHive: newest(r.tempHive),
    tempOutside: newest(r.tempOutside),
    humidityHive: newest(r.humidityHive),
    humidityOutside: newest(r.humidityOutside),
  };
}
