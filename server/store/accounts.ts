// Accounts: who owns a catalogue, and in which scenario.
import type { Queries } from './engine.ts';

export interface Account {
  id: number;
  name: string;
  warehousesEnabled: boolean;
}

const toAccount = (row: { id: number; name: string; warehouses_enabled: number }): Account => ({
  id: row.id,
  name: row.name,
  warehousesEnabled: row.warehouses_enabled === 1,
});

export async function findAccountByName(q: Queries, name: string): Promise<Account | undefined> {
  const row = await q.first(q.k.selectFrom('accounts').select(['id', 'name', 'warehouses_enabled']).where('name', '=', name));
  return row && toAccount(row);
}

export async function listAccounts(q: Queries): Promise<Account[]> {
  return (await q.all(q.k.selectFrom('accounts').select(['id', 'name', 'warehouses_enabled']).orderBy('id'))).map(toAccount);
}
