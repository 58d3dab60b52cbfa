// Accounts: who owns a catalogue, in which scenario, and how its barcodes are matched.
import { toGtin14 } from '../../shared/index.ts';
import type { Queries } from './engine.ts';

export interface Account {
  id: number;
  name: string;
  warehousesEnabled: boolean;
  /** Barcodes that are valid GTINs match by their 14-digit form (docs/API.md); absent means off. */
  gtinEquivalence?: boolean;
  /** Minutes without use after which a person's sign-in on a shared scanner expires (docs/API.md, "People"). */
  personIdleMinutes?: number;
}

const ACCOUNT_COLUMNS = ['id', 'name', 'warehouses_enabled', 'gtin_equivalence', 'person_idle_minutes'] as const;

const toAccount = (row: {
  id: number;
  name: string;
  warehouses_enabled: number;
  gtin_equivalence: number;
  person_idle_minutes: number;
}): Account => ({
  id: row.id,
  name: row.name,
  warehousesEnabled: row.warehouses_enabled === 1,
  gtinEquivalence: row.gtin_equivalence === 1,
  personIdleMinutes: row.person_idle_minutes,
});

export async function findAccountByName(q: Queries, name: string): Promise<Account | undefined> {
  const row = await q.first(q.k.selectFrom('accounts').select(ACCOUNT_COLUMNS).where('name', '=', name));
  return row && toAccount(row);
}

export async function listAccounts(q: Queries): Promise<Account[]> {
  return (await q.all(q.k.selectFrom('accounts').select(ACCOUNT_COLUMNS).orderBy('id'))).map(toAccount);
}

/** Turns GTIN equivalence on or off for an account; undefined when there is no such account. */
export async function setGtinEquivalence(q: Queries, name: string, on: boolean): Promise<Account | undefined> {
  await q.run(
    q.k
      .updateTable('accounts')
      .set({ gtin_equivalence: on ? 1 : 0 })
      .where('name', '=', name),
  );
  return findAccountByName(q, name);
}

/** Barcodes of one account that are the same GTIN written differently, e.g. `012345678905` and `0012345678905`. */
export interface GtinClash {
  gtin14: string;
  barcodes: string[];
}

/**
 * The account's barcodes that would stand for one product under GTIN equivalence but belong to
 * different items or variants. With equivalence on, a scan matches its exact barcode first, so
 * these still work; they are worth knowing about before turning it on.
 */
export async function gtinClashes(q: Queries, accountId: number): Promise<GtinClash[]> {
  const rows = await q.all(
    q.k
      .selectFrom('stock_units')
      .select('barcode')
      .where('account_id', '=', accountId)
      .where((eb) => eb.fn('length', ['barcode']), 'in', [8, 12, 13, 14])
      .orderBy('barcode'),
  );
  const byGtin = new Map<string, string[]>();
  for (const { barcode } of rows) {
    const gtin14 = toGtin14(barcode);
    if (gtin14 === null) continue;
    const barcodes = byGtin.get(gtin14);
    if (barcodes) barcodes.push(barcode);
    else byGtin.set(gtin14, [barcode]);
  }
  return [...byGtin].filter(([, barcodes]) => barcodes.length > 1).map(([gtin14, barcodes]) => ({ gtin14, barcodes }));
}
