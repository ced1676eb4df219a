/**
 * What an operation needs from where it runs, per call: the replica of the caller's tenant, who
 * is calling, and the clock. The server builds one from the authenticated caller and its SQL
 * store; a device from its signed-in user and its Dexie replica.
 */
import type { HandlerContext } from "@connectrpc/connect";
import type { CommandContext } from "../core/commands/context.ts";
import type { Hlc } from "../core/hlc.ts";
import type { PhotoHash } from "../core/photo-ref.ts";
import type { SeriesSource } from "./reading-series.ts";
import type { ReplicaStore } from "./replica-store.ts";
import type { StatsSource } from "./stats-source.ts";

export interface OpsSession {
  readonly store: ReplicaStore;
  readonly organizationId: string;
  readonly userId: string;
  /** The organization's name, where it is known (the server); a backup carries it. */
  readonly organizationName?: () => Promise<string>;
  /** The figures of StatsService: SQL on the server, TypeScript on a device. */
  readonly stats: StatsSource;
  /**
   * GetReadingSeries' rows (issue 29): SQL aggregates on the server; absent on a device, which
   * runs the rule over its replica (reading-series.ts `localSeries`).
   */
  readonly series?: SeriesSource;
  /** The time of the operation (the server's clock; a device's corrected clock). */
  now(): Date;
  /** A fresh entity id (UUID v7). */
  newId(): string;
  /**
   * A fresh HLC, greater than every stamp this node has issued or seen; the store's writer shows
   * the clock every row an operation reads in a write (`observeReads`), so a change stamped
   * after the read is later than the rows it edits.
   */
  stamp(): Hlc;
  /** As `CommandContext.photoHash`: a device's replica holds pulled photos by reference. */
  readonly photoHash?: PhotoHash;
  /**
   * A device: the photo (data URL) of a value of an inspection's photos held by reference, read
   * from the device or fetched; undefined when it was removed meanwhile; throws ConnectError
   * when it cannot be had (offline). What a backup writes instead of the reference.
   */
  readonly photoOf?: (inspectionId: string, ref: string) => Promise<string | undefined>;
}

/** How the services find the session of a call (the caller travels in the context values). */
export type SessionOf = (ctx: HandlerContext) => OpsSession;

/** The command context of one operation: one "now" for all its defaults. */
export function commandContext(session: OpsSession): CommandContext {
  return {
    now: session.now(),
    authorId: session.userId,
    newId: () => session.newId(),
    stamp: () => session.stamp(),
    ...(session.photoHash ? { photoHash: session.photoHash } : {}),
  };
}
