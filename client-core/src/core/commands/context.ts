import type { Hlc } from "../hlc.ts";
import type { PhotoHash } from "../photo-ref.ts";

/**
 * What a domain command needs from its surroundings; the server and every
 * device pass their own. Commands never read the clock or make ids themselves.
 */
export interface CommandContext {
  /** The wall-clock time of the operation (defaults such as created_at). */
  readonly now: Date;
  /** The user the changes are recorded for. */
  readonly authorId: string;
  /** A fresh entity id (UUID v7). */
  newId(): string;
  /** A fresh HLC, greater than every stamp this node has issued or seen. */
  stamp(): Hlc;
  /**
   * Where photos may be held by reference (a device: core/photo-ref.ts), the hash that tells a
   * photo and its reference for the same photo; absent on the server, which holds photos only.
   */
  readonly photoHash?: PhotoHash;
}
