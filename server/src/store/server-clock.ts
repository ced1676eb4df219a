import { randomBytes } from "node:crypto";
import { type Clock, createClock, type Hlc, receive, tick } from "@hivekeep/client-core/core";

/**
 * The server's hybrid logical clock. Each process is its own node. Before a
 * command stamps a change to existing rows, the clock has observed their stamps
 * (the SQL store's writer shows it every row an operation reads: observeReads),
 * so a server write always wins over what it has seen, even when a device
 * stamped slightly (≤ 60 s) ahead of the server's wall clock.
 */
export class ServerClock {
  private clock: Clock;
  constructor(
    readonly node: string,
    private readonly now: () => number = Date.now,
  ) {
    this.clock = createClock(node);
  }

  stamp(): Hlc {
    const { clock, hlc } = tick(this.clock, this.now());
    this.clock = clock;
    return hlc;
  }

  observe(hlc: Hlc): void {
    this.clock = receive(this.clock, hlc, this.now());
  }

  nowMs(): number {
    return this.now();
  }
}

/** A clock for one server process: its node id is random per process. */
export const newServerClock = (): ServerClock =>
  new ServerClock(`srv-${randomBytes(6).toString("hex")}`);
