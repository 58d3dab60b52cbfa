// Codes of the shop's own for items that have no barcode (docs/LABELS.md): EAN-13s from the account's
// prefix (a GS1 company prefix, or 20–29 for use inside the shop), numbered on from the last one made,
// skipping any the account holds already. They are written through the catalogue import's own writer,
// so the catalogue version moves and followers get them with the next catalogue sync, and a follower
// (whose catalogue comes from its upstream) refuses them as it refuses an import.
import type { Catalogue } from '../../catalogue/catalogue-schema.ts';
import { internalCode, labelMessages } from '../../../shared/index.ts';
import { badRequest, conflict } from '../../errors.ts';
import type { Account } from '../accounts.ts';
import { writeCatalogue } from '../catalogue-writer.ts';
import type { MovementLog } from '../movements/movement-log.ts';
import { readLabelSettings, writeLabelSettings } from './label-settings.ts';

export interface MadeCode {
  item: number;
  name: string;
  barcode: string;
}

/** Items of the account that hold no barcode: no unit of their own and no variants. */
async function itemsWithoutCode(
  log: MovementLog,
  account: Account,
  ids: readonly number[] | 'all',
): Promise<{ id: number; name: string }[]> {
  const { q } = log;
  let query = q.k
    .selectFrom('items as i')
    .select(['i.id', 'i.name'])
    .where('i.account_id', '=', account.id)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('stock_units as u').select('u.id').whereRef('u.item_id', '=', 'i.id'))))
    .orderBy('i.id');
  if (ids !== 'all') {
    if (ids.length === 0) return [];
    query = query.where('i.id', 'in', [...ids]);
  }
  return q.all(query);
}

/** Explains why a named item cannot get a code: unknown, has a barcode, or has variants. */
async function whyNot(log: MovementLog, account: Account, id: number): Promise<string> {
  const { q } = log;
  const item = await q.first(q.k.selectFrom('items').select('id').where('id', '=', id).where('account_id', '=', account.id));
  if (!item) return labelMessages.itemNotFound(id);
  const own = await q.first(q.k.selectFrom('stock_units').select('barcode').where('item_id', '=', id).where('variant_id', 'is', null));
  return own ? labelMessages.itemHasCode(id, own.barcode) : labelMessages.itemHasVariants(id);
}

/** Items of the account (by id, or every one without a barcode) given codes, in one write. */
export async function makeInternalCodes(log: MovementLog, account: Account, which: readonly number[] | 'all'): Promise<MadeCode[]> {
  const { q } = log;
  const link = await q.first(q.k.selectFrom('sync_links').select('upstream_url').where('account_id', '=', account.id));
  if (link) throw badRequest(labelMessages.followerCodes(account.name, link.upstream_url));
  const items = await itemsWithoutCode(log, account, which);
  if (which !== 'all' && items.length < new Set(which).size) {
    const found = new Set(items.map((item) => item.id));
    const problems = [];
    for (const id of new Set(which)) if (!found.has(id)) problems.push(await whyNot(log, account, id));
    throw badRequest(problems.join(' '));
  }
  if (items.length === 0) return [];
  const settings = await readLabelSettings(q, account.id);
  let n = settings.nextCode;
  const made: MadeCode[] = [];
  for (const item of items) {
    for (;;) {
      const code = internalCode(settings.prefix, n++);
      if (code === null) throw conflict(labelMessages.prefixFull(settings.prefix));
      const taken = await q.first(
        q.k.selectFrom('stock_units').select('id').where('account_id', '=', account.id).where('barcode', '=', code),
      );
      if (taken) continue;
      made.push({ item: item.id, name: item.name, barcode: code });
      break;
    }
  }
  const catalogue: Catalogue = {
    accounts: [
      {
        name: account.name,
        warehouses_enabled: account.warehousesEnabled,
        items: made.map((code) => ({ id: code.item, name: code.name, barcode: code.barcode })),
      },
    ],
  };
  await writeCatalogue(log, catalogue);
  await writeLabelSettings(q, account.id, { nextCode: n });
  return made;
}
