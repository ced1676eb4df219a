/** English or Deutsch: the whole app switches at once and remembers it on this device. */
import {
  defineMessages,
  type Language,
  setLanguage,
  useLanguage,
  useMessages,
} from "../../i18n.ts";
import { Choice } from "../../ui/forms.tsx";

const messages = defineMessages("language", {
  en: { language: "Language" },
  de: { language: "Sprache" },
});

// Each language by its own name, so anyone finds theirs.
const options: readonly { value: Language; label: string }[] = [
  { value: "en", label: "English" },
  { value: "de", label: "Deutsch" },
];

export function LanguageChoice() {
  const t = useMessages(messages);
  const lng = useLanguage();
  return (
    <Choice
      label={t("language")}
      value={lng}
      options={options}
      onChange={(v) => v && setLanguage(v)}
    />
  );
}
