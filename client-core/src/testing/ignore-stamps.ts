/**
 * A clock for stores in tests that stamp nothing through them (they apply ready-made changes or
 * only read): it sees every stamp and keeps none. Product code always hands a store its real
 * clock (the device's or the server's), which the store's writer shows every row it reads.
 */
import type { StampObserver } from "../ops/replica-store.ts";

export const ignoreStamps: StampObserver = { observe() {} };
