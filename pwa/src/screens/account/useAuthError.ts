import { useState } from "react";
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

/**
 * A call to the server's AuthService and its state: `busy` while it runs, `error` (a sentence)
 * when it failed. `setError` says what is wrong before calling (an empty field). With
 * `untilGone`, a success leaves the screen or the row (a sign-in, a revoked key): busy stays on
 * until it goes, so the button cannot be pressed twice.
 *
 *   const revoke = useAuthCall(async () => { await authClient.revokeApiKey({ id }); onRevoked(); });
 */
export function useAuthCall<A extends unknown[]>(
  call: (...args: A) => Promise<unknown>,
  options: { readonly untilGone?: boolean } = {},
): {
  run: (...args: A) => Promise<void>;
  busy: boolean;
  error: string | undefined;
  setError: (error: string | undefined) => void;
} {
  const describe = useAuthError();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  return {
    busy,
    error,
    setError,
    run: async (...args: A) => {
      setBusy(true);
      setError(undefined);
      try {
        await call(...args);
        if (!options.untilGone) setBusy(false);
      } catch (err) {
        setError(describe(err));
        setBusy(false);
      }
    },
  };
}
