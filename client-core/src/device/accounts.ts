/**
 * The accounts a device has used, per server: so a cold start with no signal opens the replica
 * of the last account (WhoAmI needs the network). One small IndexedDB database for all of them.
 */
import { Dexie, type EntityTable } from "dexie";
import type { ReplicaDbOptions } from "./replica-db.ts";

export interface AccountRecord {
  readonly baseUrl: string;
  readonly organizationId: string;
  readonly userId: string;
}

type AccountsDb = Dexie & { accounts: EntityTable<AccountRecord, "baseUrl"> };

function openAccounts(options: ReplicaDbOptions): AccountsDb {
  const db = new Dexie("hivekeep-accounts", {
    ...(options.indexedDB ? { indexedDB: options.indexedDB } : {}),
    ...(options.IDBKeyRange ? { IDBKeyRange: options.IDBKeyRange } : {}),
  }) as AccountsDb;
  db.version(1).stores({ accounts: "baseUrl" });
  return db;
}

async function withAccounts<T>(options: ReplicaDbOptions, fn: (db: AccountsDb) => Promise<T>) {
  const db = openAccounts(options);
  try {
    return await fn(db);
  } finally {
    db.close();
  }
}

export const rememberAccount = (account: AccountRecord, options: ReplicaDbOptions) =>
  withAccounts(options, (db) => db.accounts.put(account));

export const lastAccount = (baseUrl: string, options: ReplicaDbOptions) =>
  withAccounts(options, (db) => db.accounts.get(baseUrl));
