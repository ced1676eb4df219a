/**
 * Photos the replica holds by reference (core/photo-ref.ts; issue 29). A first sync downloads
 * references only; a photo is fetched (SyncService.GetPhoto) when it is shown, and kept in the
 * `photos` table. The photos of recent visits are fetched ahead so they are there offline
 * (`keepRecent`), and photos neither recent nor shown for as long are let go again.
 *
 * A photo the device took itself stays in its row in full (it travels in the outbox, and the
 * echo of it is not merged twice: `withoutHeldPhotos`), so nothing taken offline depends on this.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { Dexie } from "dexie";
import { entities } from "../core/entities.ts";
import type { OrSetState } from "../core/or-set.ts";
import { orSetValues } from "../core/or-set.ts";
import { isPhotoRef } from "../core/photo-ref.ts";
import { type DeviceRow, orderedIndexName, type ReplicaDb } from "./replica-db.ts";

/** A photo to show, or why there is none. */
export type PhotoState =
  | { readonly kind: "ready"; readonly src: string }
  /** offline: not on this device and the server cannot be reached; gone: removed meanwhile. */
  | { readonly kind: "missing"; readonly reason: "offline" | "gone" | "failed" };

/** GetPhoto: the photo of a reference; throws ConnectError. */
export type FetchPhoto = (inspectionId: string, ref: string) => Promise<string>;

/** How long photos of visits are kept, and shown photos stay, by default: 30 days. */
export const defaultKeepDays = 30;

const day = 86_400_000;

export interface DevicePhotos {
  /** The photo `value` (a data URL or a reference) of inspection `inspectionId`. */
  resolve(inspectionId: string, value: string): Promise<PhotoState>;
  /**
   * Fetches the photos of visits of the last `days` days the device does not hold, one at a
   * time, and lets go of fetched photos neither of such a visit nor shown in that time.
   * Answers how many it fetched; stops at the first that cannot be fetched (offline).
   */
  keepRecent(days?: number): Promise<number>;
}

export function devicePhotos(
  db: ReplicaDb,
  fetchPhoto: FetchPhoto,
  now: () => number,
): DevicePhotos {
  const fetching = new Map<string, Promise<PhotoState>>();

  async function fetchAndKeep(inspectionId: string, ref: string): Promise<PhotoState> {
    try {
      const dataUrl = await fetchPhoto(inspectionId, ref);
      await db.photos.put({ ref, dataUrl, usedAt: now() });
      return { kind: "ready", src: dataUrl };
    } catch (err) {
      const code = ConnectError.from(err).code;
      if (code === Code.NotFound) return { kind: "missing", reason: "gone" };
      if (code === Code.Unavailable || code === Code.DeadlineExceeded) {
        return { kind: "missing", reason: "offline" };
      }
      return { kind: "missing", reason: "failed" };
    }
  }

  /**
   * The references of the live visits dated since `sinceMs`, by inspection (through the visits'
   * index: a reading holds no photo, and a scale's month of readings is not read).
   */
  async function recentRefs(sinceMs: number): Promise<Map<string, string>> {
    const table = db.table<DeviceRow, string>(entities.inspection.table);
    const since = new Date(sinceMs).toISOString();
    const rows = await table
      .where(orderedIndexName({ order: "date", visits: true }))
      .between([1, since], [1, Dexie.maxKey], true, true)
      .toArray();
    const refs = new Map<string, string>();
    for (const row of rows) {
      const set = row.values.photo_keys as OrSetState | undefined;
      for (const value of set ? orSetValues(set) : []) {
        if (isPhotoRef(value)) refs.set(value, row.id);
      }
    }
    return refs;
  }

  return {
    async resolve(inspectionId, value) {
      if (!isPhotoRef(value)) return { kind: "ready", src: value };
      const kept = await db.photos.get(value);
      if (kept !== undefined) {
        // Shown again: kept longer (a write only when the day changed).
        if (now() - kept.usedAt > day) await db.photos.update(value, { usedAt: now() });
        return { kind: "ready", src: kept.dataUrl };
      }
      const running = fetching.get(value);
      if (running) return running;
      const next = fetchAndKeep(inspectionId, value).finally(() => fetching.delete(value));
      fetching.set(value, next);
      return next;
    },

    async keepRecent(days = defaultKeepDays) {
      const since = now() - days * day;
      const recent = await recentRefs(since);
      const held = new Set(
        (await db.photos.bulkGet([...recent.keys()])).flatMap((p) => (p ? [p.ref] : [])),
      );
      let fetched = 0;
      for (const [ref, inspectionId] of recent) {
        if (held.has(ref)) continue;
        const state = await fetchAndKeep(inspectionId, ref);
        if (state.kind === "ready") fetched += 1;
        else if (state.reason === "offline") break;
      }
      // Let go of what is neither of a recent visit nor shown lately.
      const stale = await db.photos.where("usedAt").below(since).primaryKeys();
      await db.photos.bulkDelete(stale.filter((ref) => !recent.has(ref)));
      return fetched;
    },
  };
}
