import { replicaStoreSuite, suiteClock } from "../testing/replica-store-suite.ts";
import { MemoryStore } from "./memory-store.ts";

replicaStoreSuite("memory", async () => {
  const clock = suiteClock();
  return { store: new MemoryStore(clock), clock, close: async () => {} };
});
