/**
 * The device's time: its HLC (persisted with every write, so a restart never re-issues a stamp)
 * and the offset to the server's clock, measured from the `serverTime` of every Push and Pull
 * response. The device stamps with its wall clock corrected by that offset, so a phone whose
 * clock is hours off still stamps close to the server's time once it has been online.
 */
import { type Clock, createClock, type Hlc, receive, tick } from "../core/hlc.ts";
import type { MetaEntry } from "./replica-db.ts";

export interface DeviceClockState {
  readonly node: string;
  readonly clock?: Clock | undefined;
  readonly offsetMs?: number | undefined;
}

/** A short random suffix that tells apart the clients of one replica (tabs). */
function instanceSuffix(): string {
  const bytes = new Uint8Array(6);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => (b % 36).toString(36)).join("");
}

export class DeviceClock {
  private clock: Clock;
  /** Server time minus wall time; undefined until the first response. */
  offsetMs: number | undefined;

  /**
   * Every client of a replica (each tab) stamps as a node of its own, `<replica node>-<suffix>`:
   * tabs restore the same persisted clock and stamp independently, so under one node id they
   * could issue the same stamp for different writes (equal stamps mean "the same write" to the
   * merge; two photos would share an OR-set tag). The persisted clock still orders every stamp
   * after those issued before.
   */
  constructor(
    state: DeviceClockState,
    /** The wall clock (injected for tests; the sync engine reads it too). */
    readonly wallMs: () => number = Date.now,
    suffix: string = instanceSuffix(),
  ) {
    const node = `${state.node.slice(0, 64 - suffix.length - 1)}-${suffix}`;
    this.clock = { ...(state.clock ?? createClock(node)), node };
    this.offsetMs = state.offsetMs;
  }

  get node(): string {
    return this.clock.node;
  }

  /** The device's best estimate of the server's time. */
  nowMs(): number {
    return this.wallMs() + (this.offsetMs ?? 0);
  }

  stamp(): Hlc {
    const next = tick(this.clock, this.nowMs());
    this.clock = next.clock;
    return next.hlc;
  }

  observe(hlc: Hlc): void {
    this.clock = receive(this.clock, hlc, this.nowMs());
  }

  /** A response's server time (Unix ms). */
  observeServerTime(serverMs: number | undefined): void {
    if (serverMs !== undefined && Number.isFinite(serverMs))
      this.offsetMs = serverMs - this.wallMs();
  }

  /** After re-stamping: the clock rebuilt from accepted stamps only. */
  reset(clock: Clock): void {
    this.clock = clock;
  }

  /** What to persist in the replica's meta. */
  meta(): MetaEntry[] {
    return [
      { key: "clock", value: this.clock },
      { key: "offsetMs", value: this.offsetMs },
    ];
  }
}
