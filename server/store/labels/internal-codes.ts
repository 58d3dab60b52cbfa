// Codes of the shop's own for goods that have no barcode (docs/LABELS.md): loose and bulk goods, the
// shop's own products, shelves and bins. Each becomes a new item with an EAN-13 from the account's
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

/** New items named `names`, each with a code of the account's prefix, in one write. */
export async function makeInternalCodes(log: MovementLog, account: Account, names: readonly string[]): Promise<MadeCode[]> {
  const { q } = log;
  const link = await q.first(q.k.selectFrom('sync_links').select('upstream_url').where('account_id', '=', account.id));
  if (link) throw badRequest(labelMessages.followerCodes(account.name, link.upstream_url));
  const settings = await readLabelSettings(q, account.id);
  // Item ids are unique across the database (an import may bring its own): new ones follow the largest.
  const last = await q.first(q.k.selectFrom('items').select((eb) => eb.fn.max('id').as('id')));
  let nextId = Number(last?.id ?? 0) + 1;
  let n = settings.nextCode;
  const made: MadeCode[] = [];
  for (const name of names) {
    for (;;) {
      const code = internalCode(settings.prefix, n++);
      if (code === null) throw conflict(labelMessages.prefixFull(settings.prefix));
      const taken = await q.first(
        q.k.selectFrom('stock_units').select('id').where('account_id', '=', account.id).where('barcode', '=', code),
      );
      if (taken) continue;
      made.push({ item: nextId++, name, barcode: code });
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
