// An account of a generated catalogue written through the store, with what the movement log takes
// of it: the account's id and its units as `MovementUnit`s, for tests that drive MovementLog
// directly inside an engine's transactions.
import { parseCatalogue } from '../../server/catalogue/import-catalogue.ts';
import type { Engine } from '../../server/store/engine.ts';
import type { MovementUnit } from '../../server/store/movements/movement-log.ts';
import { createStore } from '../../server/store/store.ts';
import { type AccountSpec, generatedCatalogue } from './generated-catalogue.ts';

export async function writtenAccount(engine: Engine, spec: AccountSpec): Promise<{ accountId: number; units: MovementUnit[] }> {
  await createStore(engine).catalogue.write(await parseCatalogue(generatedCatalogue([spec])));
  const accountId = (await engine.read((q) => q.first(q.k.selectFrom('accounts').select('id').where('name', '=', spec.name))))!.id;
  const rows = await engine.read((q) =>
    q.all(q.k.selectFrom('stock_units').select(['id', 'item_id', 'variant_id']).where('account_id', '=', accountId).orderBy('id')),
  );
  return { accountId, units: rows.map((u) => ({ id: u.id, itemId: u.item_id, variantId: u.variant_id })) };
}
