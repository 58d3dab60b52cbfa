// Reorder points (docs/REORDER.md): a unit's minimum per warehouse and the optional target a purchase
// orders up to. They are part of the catalogue: written by the import, the API and the scanner UI on
// the instance that owns the catalogue, handed down to followers with it (a follower refuses changes,
// as it refuses an import), and every change moves the account's catalogue version.
import { type ReorderPoint, type ReorderPointRow, fieldMessages, syncMessages } from '../../shared/index.ts';
import { badRequest, conflict } from '../errors.ts';
import type { Account } from './accounts.ts';
import { actorOf, recordAudit } from './audit.ts';
import type { Queries } from './engine.ts';
import { NO_WAREHOUSE } from './schema.ts';
import type { Caller } from './tokens.ts';

/** A reorder point to keep: `minimum` null removes it. */
export interface ReorderLevel {
  minimum: number | null;
  target: number | null;
}

/** Writes one unit's reorder point in one warehouse; true when that changed anything. */
export async function writeReorderPoint(
  q: Queries,
  accountId: number,
  unitId: number,
  warehouseId: number,
  level: ReorderLevel,
): Promise<boolean> {
  const where = { unit_id: unitId, warehouse_id: warehouseId };
  const existing = await q.first(
    q.k.selectFrom('reorder_points').select(['minimum', 'target']).where('unit_id', '=', unitId).where('warehouse_id', '=', warehouseId),
  );
  if (level.minimum === null) {
    if (!existing) return false;
    await q.run(q.k.deleteFrom('reorder_points').where('unit_id', '=', where.unit_id).where('warehouse_id', '=', where.warehouse_id));
    return true;
  }
  if (existing && existing.minimum === level.minimum && existing.target === level.target) return false;
  if (existing)
    await q.run(
      q.k
        .updateTable('reorder_points')
        .set({ minimum: level.minimum, target: level.target })
        .where('unit_id', '=', unitId)
        .where('warehouse_id', '=', warehouseId),
    );
  else
    await q.run(q.k.insertInto('reorder_points').values({ ...where, account_id: accountId, minimum: level.minimum, target: level.target }));
  return true;
}

/** The catalogue of an account moved: followers copy it at their next round. */
export async function moveCatalogueVersion(q: Queries, accountId: number): Promise<void> {
  await q.run(
    q.k
      .updateTable('accounts')
      .set((eb) => ({ catalogue_version: eb('catalogue_version', '+', 1) }))
      .where('id', '=', accountId),
  );
}

/** The reorder points of these barcodes (those that have one), with the stock there now, in barcode order then warehouse id. */
export async function readReorderPoints(q: Queries, account: Account, barcodes: readonly string[]): Promise<ReorderPoint[]> {
  if (barcodes.length === 0) return [];
  const rows = await q.all(
    q.k
      .selectFrom('stock_units as u')
      .innerJoin('reorder_points as r', 'r.unit_id', 'u.id')
      .leftJoin('stock as s', (join) => join.onRef('s.unit_id', '=', 'r.unit_id').onRef('s.warehouse_id', '=', 'r.warehouse_id'))
      .leftJoin('warehouses as w', (join) => join.onRef('w.id', '=', 'r.warehouse_id').onRef('w.account_id', '=', 'u.account_id'))
      .select((eb) => [
        'u.item_id',
        'u.variant_id',
        'u.barcode',
        'r.warehouse_id',
        'w.name as warehouse_name',
        'r.minimum',
        'r.target',
        eb.fn.coalesce('s.quantity', eb.lit(0)).as('quantity'),
      ])
      .where('u.account_id', '=', account.id)
      .where('u.barcode', 'in', [...barcodes]),
  );
  const order = new Map(barcodes.map((b, i) => [b, i]));
  rows.sort((a, b) => order.get(a.barcode)! - order.get(b.barcode)! || a.warehouse_id - b.warehouse_id);
  return rows.map((row) => {
    const quantity = Number(row.quantity);
    return {
      item: row.item_id,
      liquid_stock: row.variant_id,
      barcode: row.barcode,
      warehouse: row.warehouse_id === NO_WAREHOUSE ? null : row.warehouse_id,
      warehouse_name: row.warehouse_id === NO_WAREHOUSE ? null : (row.warehouse_name ?? null),
      minimum: row.minimum,
      target: row.target,
      quantity,
      low: quantity <= row.minimum,
    };
  });
}

/**
 * Sets or removes the reorder points of `rows`, all or none: a row naming an unknown barcode or
 * warehouse (or a warehouse where the account has none, or none where it has) refuses the request
 * with every such problem, and nothing is written. Answers the reorder points of the rows' barcodes.
 */
export async function setReorderPoints(q: Queries, account: Caller, rows: readonly ReorderPointRow[]): Promise<ReorderPoint[]> {
  const link = await q.first(q.k.selectFrom('sync_links').select('upstream_url').where('account_id', '=', account.id));
  if (link) throw conflict(syncMessages.linkedAccountReorderPoints(account.name, link.upstream_url), 'catalogue_from_upstream');
  const barcodes = [...new Set(rows.map((r) => r.barcode))];
  const units = new Map(
    (
      await q.all(
        q.k.selectFrom('stock_units').select(['id', 'barcode']).where('account_id', '=', account.id).where('barcode', 'in', barcodes),
      )
    ).map((u) => [u.barcode, u.id]),
  );
  const warehouses = new Map(
    (await q.all(q.k.selectFrom('warehouses').select(['id', 'name']).where('account_id', '=', account.id))).map((w) => [w.name, w.id]),
  );
  const problems: string[] = [];
  const writes: { unitId: number; warehouseId: number; level: ReorderLevel }[] = [];
  rows.forEach((row, i) => {
    const unitId = units.get(row.barcode);
    if (unitId === undefined) problems.push(`[${i}].barcode: ${fieldMessages.barcodeNotFound(row.barcode)}`);
    let warehouseId: number | undefined = NO_WAREHOUSE;
    if (account.warehousesEnabled) {
      if (row.warehouse_name === undefined) {
        problems.push(`[${i}].warehouse_name: ${fieldMessages.required}`);
        warehouseId = undefined;
      } else {
        warehouseId = warehouses.get(row.warehouse_name);
        if (warehouseId === undefined) problems.push(`[${i}].warehouse_name: ${fieldMessages.warehouseNotFound(row.warehouse_name)}`);
      }
    } else if (row.warehouse_name !== undefined) {
      problems.push(`[${i}].warehouse_name: account "${account.name}" has no warehouses; leave it out`);
    }
    if (unitId !== undefined && warehouseId !== undefined)
      writes.push({ unitId, warehouseId, level: { minimum: row.minimum, target: row.minimum === null ? null : (row.target ?? null) } });
  });
  if (problems.length > 0) throw badRequest(`Nothing was written: ${problems.join('; ')}`, 'invalid_body');
  const changed: ReorderPointRow[] = [];
  for (const [i, { unitId, warehouseId, level }] of writes.entries()) {
    if (await writeReorderPoint(q, account.id, unitId, warehouseId, level)) changed.push(rows[i]!);
  }
  if (changed.length > 0) {
    await moveCatalogueVersion(q, account.id);
    // A change of the catalogue, not a movement: the audit log says who made it.
    await recordAudit(q, account.id, actorOf(account), {
      action: 'reorder_points.set',
      subject: `${changed.length} reorder point${changed.length === 1 ? '' : 's'}`,
      detail: { rows: changed },
    });
  }
  return readReorderPoints(q, account, barcodes);
}
