// The catalogue an upstream hands down to its followers (docs/SYNC.md, "A round", step 2).
import type { Account } from '../accounts.ts';
import type { Queries } from '../engine.ts';

/** The account's catalogue as an import document (warehouses, items, variants, barcodes; no stock: that flows as movements). */
export async function catalogueDocument(q: Queries, account: Account): Promise<{ version: number; catalogue: unknown }> {
  const version = (await q.first(q.k.selectFrom('accounts').select('catalogue_version').where('id', '=', account.id)))!.catalogue_version;
  const warehouses = await q.all(q.k.selectFrom('warehouses').select(['id', 'name']).where('account_id', '=', account.id).orderBy('id'));
  const rows = await q.all(
    q.k
      .selectFrom('stock_units as u')
      .innerJoin('items as i', 'i.id', 'u.item_id')
      .leftJoin('variants as v', 'v.id', 'u.variant_id')
      .select(['u.item_id', 'i.name as item_name', 'u.variant_id', 'v.name as variant_name', 'u.barcode'])
      .where('u.account_id', '=', account.id)
      .orderBy('u.item_id')
      .orderBy('u.variant_id'),
  );
  const items: { id: number; name: string; barcode?: string; variants?: { id: number; name: string; barcode: string }[] }[] = [];
  for (const row of rows) {
    const last = items.at(-1);
    if (row.variant_id === null) items.push({ id: row.item_id, name: row.item_name, barcode: row.barcode });
    else if (last && last.id === row.item_id && last.variants)
      last.variants.push({ id: row.variant_id, name: row.variant_name!, barcode: row.barcode });
    else
      items.push({
        id: row.item_id,
        name: row.item_name,
        variants: [{ id: row.variant_id, name: row.variant_name!, barcode: row.barcode }],
      });
  }
  return {
    version,
    catalogue: {
      accounts: [
        { name: account.name, warehouses_enabled: account.warehousesEnabled, ...(account.warehousesEnabled ? { warehouses } : {}), items },
      ],
    },
  };
}
