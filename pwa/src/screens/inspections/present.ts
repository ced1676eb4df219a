/**
 * How an inspection's measurements are shown, once for every screen (the hive page, the
 * overview, the inspection page): which readings it holds, and each value with its unit. The
 * words around them (labels) stay with each screen.
 */
import type { Inspection } from "@hivekeep/proto";
import { type Format, toDate } from "../../format.ts";
import { measured } from "../../ui/charts/series.ts";

export interface Reading {
  readonly kind: "weight" | "temperature" | "humidity";
  readonly place: "hive" | "outside";
  readonly value: number;
}

/** The measurements of an inspection (0 = not measured), weight first, the hive before outside. */
export function readingsOf(
  i: Pick<Inspection, "weightKg" | "tempHive" | "tempOutside" | "humidityHive" | "humidityOutside">,
): Reading[] {
  const all: Reading[] = [
    { kind: "weight", place: "hive", value: i.weightKg },
    { kind: "temperature", place: "hive", value: i.tempHive },
    { kind: "temperature", place: "outside", value: i.tempOutside },
    { kind: "humidity", place: "hive", value: i.humidityHive },
    { kind: "humidity", place: "outside", value: i.humidityOutside },
  ];
  return all.filter((r) => measured(r.value));
}

/** A reading's value with its unit: "43.2 kg", "34.5 °C", "61 %" (the language's numbers). */
export function readingValue(fmt: Format, r: Pick<Reading, "kind" | "value">): string {
  switch (r.kind) {
    case "weight":
      return fmt.kg(r.value);
    case "temperature":
      return fmt.celsius(r.value);
    case "humidity":
      return fmt.percent(r.value);
  }
}

/** How long after a visit its record may be written before the page says when it was (1 hour). */
const enteredLaterAfterMs = 3_600_000;

/**
 * When an inspection was entered long after the visit (back-dated, more than an hour later): the
 * time it was written down, which the page shows beside the visit's. Undefined otherwise.
 */
export function enteredLater(i: Pick<Inspection, "date" | "createdAt">): Date | undefined {
  const when = toDate(i.date);
  const created = toDate(i.createdAt);
  if (when === undefined || created === undefined) return undefined;
  return created.getTime() - when.getTime() > enteredLaterAfterMs ? created : undefined;
}
