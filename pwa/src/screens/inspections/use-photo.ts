/**
 * What to show for a value of an inspection's photos: a photo held in full as it is; one held by
 * reference (a first sync brings references only: client-core device/photos.ts) read from the
 * device or fetched, and tried again when the device comes back online.
 */
import type { PhotoState } from "@hivekeep/client-core";
import { isPhotoRef } from "@hivekeep/client-core/core";
import { useEffect, useState } from "react";
import { useOptionalClient } from "../../app/client.tsx";

/** undefined while it is being fetched. */
export function usePhoto(inspectionId: string | undefined, value: string): PhotoState | undefined {
  const client = useOptionalClient();
  const held = !isPhotoRef(value);
  const [state, setState] = useState<PhotoState | undefined>(
    held ? { kind: "ready", src: value } : undefined,
  );
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt (back online) fetches again.
  useEffect(() => {
    if (held) {
      setState({ kind: "ready", src: value });
      return;
    }
    if (client === undefined || inspectionId === undefined) {
      setState({ kind: "missing", reason: "failed" });
      return;
    }
    let live = true;
    setState(undefined);
    void client.photos.resolve(inspectionId, value).then((next) => {
      if (live) setState(next);
    });
    return () => {
      live = false;
    };
  }, [client, inspectionId, value, held, attempt]);
  // Not on the device and offline: try again once the browser is back online.
  const offline = state?.kind === "missing" && state.reason === "offline";
  useEffect(() => {
    if (!offline) return;
    const again = () => setAttempt((n) => n + 1);
    window.addEventListener("online", again);
    return () => window.removeEventListener("online", again);
  }, [offline]);
  return state;
}
