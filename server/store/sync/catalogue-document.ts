// The catalogue an upstream hands down to its followers (docs/SYNC.md, "A round", step 2).
import type { Account } from '../accounts.ts';
import type { Queries } from '../engine.ts';
import { NO_WAREHOUSE } from '../schema.ts';

interface Reorder {
  warehouse?: string;
  minimum: number;
  target?: number;
}
interface Variant {
  id: number;
  name: string;
  barcode: string;
  reorder?: Reorder[];
}

/**
 * The account's catalogue as an import document (warehouses, items, variants, barcodes and reorder
 * points; no stock: that flows as movements). The follower replaces its reorder points with these.
 */
export async function catalogueDocument(q: Queries, account: Account): Promise<{ version: number; catalogue: unknown }> {
  const version = (await q.first(q.k.selectFrom('accounts').select('catalogue_version').where('id', '=', account.id)))!.catalogue_version;
  const warehouses = await q.all(q.k.selectFrom('warehouses').select(['id', 'name']).where('account_id', '=', account.id).orderBy('id'));
  const rows = await q.all(
    q.k
      .selectFrom('stock_units as u')
      .innerJoin('items as i', 'i.id', 'u.item_id')
      .leftJoin('variants as v', 'v.id', 'u.variant_id')
      .select(['u.id', 'u.item_id', 'i.name as item_name', 'u.variant_id', 'v.name as variant_name', 'u.barcode'])
      .where('u.account_id', '=', account.id)
      .orderBy('u.item_id')
      .orderBy('u.variant_id'),
  );
  const reorderOf = new Map<number, Reorder[]>();
  const points = await q.all(
    q.k
      .selectFrom('reorder_points')
      .select(['unit_id', 'warehouse_id', 'minimum', 'target'])
      .where('account_id', '=', account.id)
      .orderBy('unit_id')
      .orderBy('warehouse_id'),
  );
  const warehouseName = new Map(warehouses.map((w) => [w.id, w.name]));
  for (const p of points) {
    const entry: Reorder = {
      ...(p.warehouse_id === NO_WAREHOUSE ? {} : { warehouse: warehouseName.get(p.warehouse_id)! }),
      minimum: p.minimum,
      ...(p.target === null ? {} : { target: p.target }),
    };
    reorderOf.set(p.unit_id, [...(reorderOf.get(p.unit_id) ?? []), entry]);
  }
  const withReorder = (unitId: number) => (reorderOf.has(unitId) ? { reorder: reorderOf.get(unitId)! } : {});
  const items: { id: number; name: string; barcode?: string; reorder?: Reorder[]; variants?: Variant[] }[] = [];
  for (const row of rows) {
    const last = items.at(-1);
    const variant = () => ({ id: row.variant_id!, name: row.variant_name!, barcode: row.barcode, ...withReorder(row.id) });
    if (row.variant_id === null) items.push({ id: row.item_id, name: row.item_name, barcode: row.barcode, ...withReorder(row.id) });
    else if (last && last.id === row.item_id && last.variants) last.variants.push(variant());
    else items.push({ id: row.item_id, name: row.item_name, variants: [variant()] });
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
