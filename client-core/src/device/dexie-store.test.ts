import "fake-indexeddb/auto";
import { Dexie } from "dexie";
import { replicaStoreSuite } from "../testing/replica-store-suite.ts";
import { dexieStore } from "./dexie-store.ts";
import { openReplicaDb } from "./replica-db.ts";

let n = 0;
replicaStoreSuite("Dexie (fake-indexeddb)", async () => {
  n += 1;
  const db = openReplicaDb(`store-suite-${n}`);
  await db.open();
  return {
    store: dexieStore(db),
    async close() {
      db.close();
      await Dexie.delete(`store-suite-${n}`);
    },
  };
});
