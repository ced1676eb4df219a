/**
 * Connect clients for the server that served this page. A placeholder: the
 * offline-first PWA will read from the local replica instead (DESIGN.md §6).
 */
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { ApiaryService, SyncService } from "@hivekeep/proto";

const transport = createConnectTransport({ baseUrl: window.location.origin });

export const apiaryClient = createClient(ApiaryService, transport);
export const syncClient = createClient(SyncService, transport);

/** A sentence for the user saying what went wrong with a call. */
export function describeError(err: unknown, action: string): string {
  if (!navigator.onLine) {
    return `Could not ${action}: you are offline. Try again when you have a connection.`;
  }
  const e = ConnectError.from(err);
  if (e.code === Code.Unknown || e.code === Code.Unavailable) {
    return `Could not ${action}: the server cannot be reached (${e.rawMessage}).`;
  }
  return `Could not ${action}: ${e.rawMessage}`;
}
