/** Words every screen shares: actions, states, and the names of the contract's enums. */
import {
  type EventType,
  HiveStatus,
  HiveType,
  MarkingColor,
  Stores,
  TaskPriority,
  Temperament,
} from "@hivekeep/proto";
import { defineMessages, type Words } from "../i18n.ts";

export const commonMessages = defineMessages("common", {
  en: {
    appName: "Hivekeep",
    /** Between a label and its value ("Stores: Good"); French puts a no-break space before. */
    labelSeparator: ": ",
    /** A name or words quoted, in the language's quotation marks. */
    quoted: "“{{text}}”",
    save: "Save",
    saving: "Saving…",
    cancel: "Cancel",
    delete: "Delete",
    edit: "Edit",
    add: "Add",
    back: "Back",
    retry: "Try again",
    close: "Close",
    loading: "Loading…",
    none: "None",
    notFound: "Not found",
    notFoundText: "This record does not exist on this device. It may have been deleted.",
    readFailed: "Could not read",
    readFailedText:
      "The records on this device could not be read ({{message}}). Reload the app to try again.",
    readOnlyDemo: "Demo: read-only. Sign up to keep your own records.",
    confirmDelete: "Really delete?",
    yes: "Yes",
    no: "No",
    keep: "Keep",
    dateInFuture: "This date is in the future. Enter when it happened: today or earlier.",
    increase: "More {{what}}",
    decrease: "Less {{what}}",
    clear: "Clear {{what}}",
    clearValue: "Clear",
    notRecorded: "not recorded",
    errorOffline: "You are offline.",
    errorGeneric: "Something went wrong: {{message}}",
    savedOffline: "Saved on this device. It will sync when you are online.",
    "hiveType.0": "Not set",
    "hiveType.1": "Zander",
    "hiveType.2": "Dadant",
    "hiveType.3": "Deutsch Normal",
    "hiveType.4": "Langstroth",
    "hiveType.5": "Warré",
    "hiveType.6": "Top bar",
    "hiveType.99": "Other",
    "hiveStatus.0": "Not set",
    "hiveStatus.1": "Active",
    "hiveStatus.2": "Nucleus",
    "hiveStatus.3": "Queenless",
    "hiveStatus.4": "Lost",
    "hiveStatus.5": "Dissolved",
    "priority.0": "Not set",
    "priority.1": "Low",
    "priority.2": "Normal",
    "priority.3": "High",
    "marking.0": "Unmarked",
    "marking.1": "White",
    "marking.2": "Yellow",
    "marking.3": "Red",
    "marking.4": "Green",
    "marking.5": "Blue",
    "stores.0": "Not set",
    "stores.1": "Good",
    "stores.2": "Medium",
    "stores.3": "Low",
    "stores.4": "None",
    "temperament.0": "Not set",
    "temperament.1": "Very gentle",
    "temperament.2": "Gentle",
    "temperament.3": "Normal",
    "temperament.4": "Nervous",
    "temperament.5": "Aggressive",
    "event.0": "Event",
    "event.1": "Hive set up",
    "event.2": "Queen introduced",
    "event.3": "Queen replaced",
    "event.4": "Moved",
    "event.5": "Inspection",
    "event.6": "Treatment",
    "event.7": "Harvest",
    "event.8": "Status changed",
    "event.9": "Dissolved",
  },
});

type Common = Words<typeof commonMessages>;

/** The enum values a beekeeper picks from, in the order shown. */
export const hiveTypes = [
  HiveType.ZANDER,
  HiveType.DADANT,
  HiveType.DEUTSCH_NORMAL,
  HiveType.LANGSTROTH,
  HiveType.WARRE,
  HiveType.TOP_BAR,
  HiveType.OTHER,
] as const;
export const hiveStatuses = [
  HiveStatus.ACTIVE,
  HiveStatus.NUC,
  HiveStatus.QUEENLESS,
  HiveStatus.LOST,
  HiveStatus.DISSOLVED,
] as const;
export const priorities = [TaskPriority.LOW, TaskPriority.NORMAL, TaskPriority.HIGH] as const;
export const markings = [
  MarkingColor.WHITE,
  MarkingColor.YELLOW,
  MarkingColor.RED,
  MarkingColor.GREEN,
  MarkingColor.BLUE,
] as const;
export const storesLevels = [Stores.GOOD, Stores.MEDIUM, Stores.LOW, Stores.NONE] as const;
export const temperaments = [
  Temperament.VERY_GENTLE,
  Temperament.GENTLE,
  Temperament.NORMAL,
  Temperament.NERVOUS,
  Temperament.AGGRESSIVE,
] as const;

export const label = {
  hiveType: (t: Common, v: HiveType) => t(`hiveType.${v}` as never),
  hiveStatus: (t: Common, v: HiveStatus) => t(`hiveStatus.${v}` as never),
  priority: (t: Common, v: TaskPriority) => t(`priority.${v}` as never),
  marking: (t: Common, v: MarkingColor) => t(`marking.${v}` as never),
  stores: (t: Common, v: Stores) => t(`stores.${v}` as never),
  temperament: (t: Common, v: Temperament) => t(`temperament.${v}` as never),
  event: (t: Common, v: EventType) => t(`event.${v}` as never),
};

/** CSS colour of a marking (for the small dot beside a queen). */
export const markingCss: Record<MarkingColor, string> = {
  [MarkingColor.UNSPECIFIED]: "transparent",
  [MarkingColor.WHITE]: "#ffffff",
  [MarkingColor.YELLOW]: "#f5d90a",
  [MarkingColor.RED]: "#d32f2f",
  [MarkingColor.GREEN]: "#2e7d32",
  [MarkingColor.BLUE]: "#1565c0",
};
