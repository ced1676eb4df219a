/**
 * How many days back the photos of visits are kept on this device for use offline (issue 29):
 * after each sync the device fetches the photos of visits of those days that it does not hold
 * (client-core device/photos.ts `keepRecent`). One value for the device (the photos are its
 * storage), 30 days unless set; 0 keeps none ahead (a photo is then fetched when it is opened).
 */
import { defaultKeepDays } from "@hivekeep/client-core";
import { readSetting, useSetting, writeSetting } from "./local-setting.ts";

const key = "hivekeep.photoKeepDays";

/** The days set on this device; undefined when unset (then `defaultKeepDays`). */
export function readPhotoKeepDaysSetting(): number | undefined {
  const days = Number(readSetting(key) ?? Number.NaN);
  return Number.isInteger(days) && days >= 0 ? days : undefined;
}

/** The days of photos kept ahead: the setting, else 30. */
export function readPhotoKeepDays(): number {
  return readPhotoKeepDaysSetting() ?? defaultKeepDays;
}

/** undefined: back to the default. */
export function writePhotoKeepDays(days: number | undefined): void {
  writeSetting(key, days === undefined ? undefined : String(days));
}

/** The setting as the field shows it: undefined when unset (the default applies). */
export function usePhotoKeepDaysSetting(): number | undefined {
  return useSetting(readPhotoKeepDaysSetting);
}
