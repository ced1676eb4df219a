/**
 * The type every loaded language's module satisfies: each namespace of the app (the
 * `defineMessages` of every screen) with every key its English has, plus the plural forms the
 * language needs beyond English's one/other (`Extra`: French "many", Polish "few" and "many").
 * A key added to a screen's English is a type error here until it is translated.
 *
 * Type-only imports: nothing of the screens travels in a language's chunk.
 */

import type { shellMessages } from "../app/shell-messages.ts";
import type { PluralCategory } from "../i18n.ts";
import type { accountMessages, authErrorMessages } from "../screens/account/messages.ts";
import type { apiaryMessages } from "../screens/apiaries/messages.ts";
import type { dashboardMessages } from "../screens/dashboard/messages.ts";
import type { hiveMessages } from "../screens/hives/messages.ts";
import type { inspectionMessages } from "../screens/inspections/messages.ts";
import type { printMessages } from "../screens/print/messages.ts";
import type { changeMessages } from "../screens/records/change-messages.ts";
import type { recordMessages } from "../screens/records/messages.ts";
import type { recordsIoMessages } from "../screens/records-io/messages.ts";
import type { languageMessages } from "../screens/settings/LanguageChoice.tsx";
import type { settingsMessages } from "../screens/settings/messages.ts";
import type { syncMessages } from "../screens/sync/messages.ts";
import type { chartMessages } from "../ui/charts/messages.ts";
import type { numberMessages } from "../ui/forms.tsx";
import type { commonMessages } from "../ui/messages.ts";
import type { readingsMessages } from "../ui/readings-messages.ts";

/** Every messages object of the app; a new `defineMessages` belongs here. */
type AppMessages =
  | typeof numberMessages
  | typeof commonMessages
  | typeof chartMessages
  | typeof shellMessages
  | typeof recordsIoMessages
  | typeof recordMessages
  | typeof changeMessages
  | typeof accountMessages
  | typeof authErrorMessages
  | typeof languageMessages
  | typeof settingsMessages
  | typeof inspectionMessages
  | typeof hiveMessages
  | typeof syncMessages
  | typeof apiaryMessages
  | typeof dashboardMessages
  | typeof printMessages
  | typeof readingsMessages;

/** `days` of `days_one` / `days_other`; never for a key that is no plural. */
type PluralOf<K> = K extends `${infer B}_${"one" | "other"}` ? B : never;

type Bundle<T, Extra extends PluralCategory> = { readonly [K in keyof T]: string } & {
  readonly [K in PluralOf<keyof T> as `${K}_${Extra}`]: string;
};

/** One language's words for the whole app. */
export type Translation<Extra extends PluralCategory = never> = {
  readonly [M in AppMessages as M["namespace"]]: Bundle<M["bundles"]["en"], Extra>;
};
