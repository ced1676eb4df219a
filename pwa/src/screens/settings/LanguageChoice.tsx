/**
 * The six languages, each named in its own: the whole app switches at once (French, Italian,
 * Spanish and Polish once their words have loaded) and remembers it on this device.
 */
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
  return (
    <Choice
      label={t("language")}
      value={lng}
      options={options}
      onChange={(v) => {
        // Not loadable (offline before it was ever cached): the app stays in its language.
        if (v) setLanguage(v).catch(() => undefined);
      }}
    />
  );
}
