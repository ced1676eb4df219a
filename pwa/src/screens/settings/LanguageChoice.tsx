/**
 * The six languages, each named in its own: the whole app switches at once (French, Italian,
 * Spanish and Polish once their words have loaded) and remembers it on this device.
 */

import { useState } from "react";
import {
  defineMessages,
  type Language,
  setLanguage,
  useLanguage,
  useMessages,
} from "../../i18n.ts";
import { Choice } from "../../ui/forms.tsx";

export const languageMessages = defineMessages("language", {
  en: { language: "Language" },
});

// Each language by its own name, so anyone finds theirs.
const options: readonly { value: Language; label: string }[] = [
  { value: "en", label: "English" },
  { value: "de", label: "Deutsch" },
  { value: "fr", label: "Français" },
  { value: "it", label: "Italiano" },
  { value: "es", label: "Español" },
  { value: "pl", label: "Polski" },
];

export function LanguageChoice() {
  const t = useMessages(languageMessages);
  const lng = useLanguage();
  // The language tapped shows as chosen at once, while its words load (a moment, from the
  // device's cache or the server); the screens switch when they are here.
  const [pending, setPending] = useState<Language | undefined>();
  return (
    <Choice
      label={t("language")}
      value={pending ?? lng}
      options={options}
      onChange={(v) => {
        if (!v) return;
        setPending(v);
        // Not loadable (offline before it was ever cached): the app stays in its language.
        setLanguage(v)
          .catch(() => undefined)
          .finally(() => setPending((p) => (p === v ? undefined : p)));
      }}
    />
  );
}
