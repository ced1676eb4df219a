/**
 * A page that runs the device half (client-core) in Chromium for the browser tests and the
 * benchmark: it opens a client for this origin and exposes it as `window.hivekeep`.
 */
import { createHivekeepClient, type HivekeepClient } from "@hivekeep/client-core";
import * as bench from "./bench.ts";

declare global {
  interface Window {
    hivekeep: HivekeepClient;
    hivekeepReady: Promise<HivekeepClient>;
    hivekeepBench: typeof bench;
  }
}

window.hivekeepBench = bench;
// `?photoRefs=0`: photos in their rows (the photo benchmark's baseline).
const photoRefs = new URLSearchParams(location.search).get("photoRefs") !== "0";
window.hivekeepReady = createHivekeepClient({ baseUrl: location.origin, photoRefs }).then(
  (client) => {
    window.hivekeep = client;
    const state = document.getElementById("state");
    if (state) state.textContent = "ready";
    return client;
  },
);
