// Accounts: who owns a catalogue, and in which scenario.
import type { Database } from './database.ts';

export interface Account {
  id: number;
  name: string;
  warehousesEnabled: boolean;
}

export function findAccountByName(db: Database, name: string): Account | undefined {
  const row = db.first(db.kysely.selectFrom('accounts').selectAll().where('name', '=', name));
  return row && { id: row.id, name: row.name, warehousesEnabled: row.warehouses_enabled === 1 };
}

export function listAccounts(db: Database): Account[] {
  return db
    .all(db.kysely.selectFrom('accounts').selectAll().orderBy('id'))
    .map((row) => ({ id: row.id, name: row.name, warehousesEnabled: row.warehouses_enabled === 1 }));
}
