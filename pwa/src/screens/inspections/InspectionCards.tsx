/**
 * The field groups of the inspection form (InspectionForm.tsx), one card each: what was seen,
 * the colony, the weather and the measurements. Each edits its part of the draft through `set`.
 * Counts and measurements take their limits from the registry's columns (fields.ts), the rules
 * CreateInspection and Push apply too.
 */
import { Stores, Temperament } from "@hivekeep/proto";
import { useMessages } from "../../i18n.ts";
import { Choice, NumberField, Stepper, TextField, Toggle } from "../../ui/forms.tsx";
import { commonMessages, label, storesLevels, temperaments } from "../../ui/messages.ts";
import { Card } from "../../ui/page.tsx";
import {
  calmnessRange,
  countColumns,
  hasPreset,
  type InspectionDraft,
  type MeasurementKey,
  measurementColumns,
  togglePreset,
} from "./fields.ts";
import { inspectionMessages } from "./messages.ts";

/** A setter of one draft field: `set("frames")(7)`. */
export type DraftSetter = <K extends keyof InspectionDraft>(
  key: K,
) => (value: InspectionDraft[K]) => void;

interface CardProps {
  readonly draft: InspectionDraft;
  readonly set: DraftSetter;
}

export function ObservationsCard({ draft, set }: CardProps) {
  const t = useMessages(inspectionMessages);
  return (
    <Card title={t("observations")}>
      <div className="inspection-form__toggles">
        <Toggle label={t("queenSeen")} checked={draft.queenSeen} onChange={set("queenSeen")} />
        <Toggle label={t("eggsSeen")} checked={draft.eggsSeen} onChange={set("eggsSeen")} />
        <Toggle
          label={t("coveredLarva")}
          checked={draft.coveredLarva}
          onChange={set("coveredLarva")}
        />
        <Toggle label={t("superAdded")} checked={draft.superAdded} onChange={set("superAdded")} />
      </div>
    </Card>
  );
}

export function ColonyCard({ draft, set }: CardProps) {
  const t = useMessages(inspectionMessages);
  const tc = useMessages(commonMessages);
  const storesOptions = [...storesLevels, Stores.UNSPECIFIED].map((v) => ({
    value: v,
    label: label.stores(tc, v),
  }));
  const temperamentOptions = [...temperaments, Temperament.UNSPECIFIED].map((v) => ({
    value: v,
    label: label.temperament(tc, v),
  }));
  return (
    <Card title={t("colony")}>
      <div className="inspection-form__steppers">
        {/* A colony has at least one frame: 0 is "not set". */}
        <Stepper
          label={t("frames")}
          value={draft.frames}
          onChange={set("frames")}
          column={countColumns.frames}
          min={1}
          start={10}
        />
        <Stepper
          label={t("broodFrames")}
          value={draft.broodFrames}
          onChange={set("broodFrames")}
          column={countColumns.broodFrames}
          start={4}
        />
        <Stepper
          label={t("queenCells")}
          value={draft.queenCells}
          onChange={set("queenCells")}
          column={countColumns.queenCells}
          start={1}
        />
        <div>
          <Stepper
            label={t("calmness")}
            value={draft.calmness}
            onChange={set("calmness")}
            column={countColumns.calmness}
            min={calmnessRange.min}
          />
          <p className="field__hint">{t("calmnessHint")}</p>
        </div>
      </div>
      <Choice
        label={t("stores")}
        value={draft.stores}
        options={storesOptions}
        onChange={(v) => set("stores")(v ?? Stores.UNSPECIFIED)}
      />
      <Choice
        label={t("temperament")}
        value={draft.temperament}
        options={temperamentOptions}
        onChange={(v) => set("temperament")(v ?? Temperament.UNSPECIFIED)}
      />
      <TextField
        label={t("varroa")}
        hint={t("varroaHint")}
        value={draft.varroa}
        onChange={set("varroa")}
      />
    </Card>
  );
}

const weatherPresets = ["sunny", "cloudy", "rain", "windy"] as const;

export function WeatherCard({ draft, set }: CardProps) {
  const t = useMessages(inspectionMessages);
  return (
    <Card title={t("weather")}>
      <fieldset className="presets">
        <legend className="presets__label">{t("weatherPresets")}</legend>
        <div className="presets__row">
          {weatherPresets.map((k) => {
            const word = t(k);
            const on = hasPreset(draft.weather, word);
            return (
              <button
                key={k}
                type="button"
                className="preset"
                aria-pressed={on}
                onClick={() => set("weather")(togglePreset(draft.weather, word))}
              >
                {word}
              </button>
            );
          })}
        </div>
      </fieldset>
      <TextField label={t("weather")} value={draft.weather} onChange={set("weather")} />
    </Card>
  );
}

/** `showProblems`: after a refused save, every measurement outside its range says so. */
export function MeasurementsCard(props: CardProps & { readonly showProblems: boolean }) {
  const t = useMessages(inspectionMessages);
  const { draft, set } = props;
  const measurement = (key: MeasurementKey, labelText: string, unit: string) => (
    <NumberField
      label={labelText}
      unit={unit}
      value={draft[key]}
      onChange={set(key)}
      column={measurementColumns[key]}
      showProblem={props.showProblems}
    />
  );
  return (
    <Card title={t("measurements")}>
      <p className="field__hint">{t("measurementsHint")}</p>
      <div className="inspection-form__measures">
        {measurement("weightKg", t("weight"), "kg")}
        {measurement("tempHive", t("tempHive"), "°C")}
        {measurement("tempOutside", t("tempOutside"), "°C")}
        {measurement("humidityHive", t("humidityHive"), "%")}
        {measurement("humidityOutside", t("humidityOutside"), "%")}
      </div>
    </Card>
  );
}
