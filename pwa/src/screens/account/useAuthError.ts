import { useMessages } from "../../i18n.ts";
import { authFailure } from "./errors.ts";
import { authErrorMessages } from "./messages.ts";

/** A sentence, in the chosen language, for a failed call to the server's AuthService. */
export function useAuthError(): (err: unknown) => string {
  const t = useMessages(authErrorMessages);
  return (err) => {
    const f = authFailure(err, typeof navigator === "undefined" || navigator.onLine);
    if (f.key === "tooMany") return t("tooMany", { seconds: f.seconds });
    if (f.key === "other") return t("other", { message: f.message });
    return t(f.key);
  };
}
