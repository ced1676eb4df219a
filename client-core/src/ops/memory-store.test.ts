import { replicaStoreSuite } from "../testing/replica-store-suite.ts";
import { MemoryStore } from "./memory-store.ts";

replicaStoreSuite("memory", async () => ({ store: new MemoryStore(), close: async () => {} }));
