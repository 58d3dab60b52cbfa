// The catalogue file format of `barcode-inventory import` (README, "Catalogue format"), as a zod
// schema whose errors point at the place: `accounts[0].items[3].barcode: …`.
import { z } from 'zod';
import { MAX_QUANTITY, MIN_QUANTITY, barcodeInputSchema } from '../../shared/index.ts';

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const name = z.string().trim().min(1, { error: 'This field may not be blank.' });
const quantity = z.number().int().min(MIN_QUANTITY).max(MAX_QUANTITY);
const barcode = barcodeInputSchema;

const stockEntry = z.strictObject({ warehouse: z.string().optional(), quantity });
const variant = z.strictObject({ id, name, barcode, stock: z.array(stockEntry).optional() });
const item = z.strictObject({
  id,
  name,
  barcode: barcode.optional(),
  variants: z.array(variant).min(1).optional(),
  stock: z.array(stockEntry).optional(),
});
const warehouse = z.strictObject({ id, name });
const account = z.strictObject({
  name,
  warehouses_enabled: z.boolean(),
  warehouses: z.array(warehouse).optional(),
  items: z.array(item).default([]),
});

type Path = (string | number)[];

/** Cross-field rules: one of barcode/variants, stock that fits the scenario, unique ids and barcodes. */
function checkCatalogue(catalogue: { accounts: z.infer<typeof account>[] }, ctx: z.RefinementCtx): void {
  const issue = (path: Path, message: string) => ctx.addIssue({ code: 'custom', path, message });
  const seen = { account: new Map<string, Path>(), warehouse: new Map<number, Path>(), item: new Map<number, Path>(), variant: new Map<number, Path>() };
  const unique = <K>(map: Map<K, Path>, key: K, path: Path, what: string) => {
    const first = map.get(key);
    if (first) issue(path, `duplicate ${what} ${JSON.stringify(key)}, first used at ${formatPath(first)}`);
    else map.set(key, path);
  };

  catalogue.accounts.forEach((acc, a) => {
    const accPath: Path = ['accounts', a];
    unique(seen.account, acc.name, [...accPath, 'name'], 'account name');
    const warehouseNames = new Map<string, Path>();
    if (!acc.warehouses_enabled && acc.warehouses && acc.warehouses.length > 0) {
      issue([...accPath, 'warehouses'], 'an account with warehouses_enabled false has no warehouses');
    }
    acc.warehouses?.forEach((w, i) => {
      unique(seen.warehouse, w.id, [...accPath, 'warehouses', i, 'id'], 'warehouse id');
      unique(warehouseNames, w.name, [...accPath, 'warehouses', i, 'name'], 'warehouse name');
    });
    const barcodes = new Map<string, Path>();

    const checkStock = (stock: z.infer<typeof stockEntry>[] | undefined, path: Path) => {
      if (!stock) return;
      if (!acc.warehouses_enabled) {
        if (stock.length > 1) issue(path, 'an account without warehouses has at most one stock entry per barcode');
        stock.forEach((s, i) => {
          if (s.warehouse !== undefined) issue([...path, i, 'warehouse'], 'an account without warehouses has no warehouse in its stock entries');
        });
        return;
      }
      const used = new Map<string, Path>();
      stock.forEach((s, i) => {
        const where: Path = [...path, i, 'warehouse'];
        if (s.warehouse === undefined) return issue(where, 'This field is required.');
        if (!warehouseNames.has(s.warehouse)) return issue(where, `No warehouses found with name: ${s.warehouse}`);
        unique(used, s.warehouse, where, 'stock entry for warehouse');
      });
    };

    acc.items.forEach((it, i) => {
      const itemPath: Path = [...accPath, 'items', i];
      unique(seen.item, it.id, [...itemPath, 'id'], 'item id');
      if ((it.barcode === undefined) === (it.variants === undefined)) {
        issue(itemPath, 'an item has either "barcode" (it holds stock itself) or "variants", not both and not neither');
      }
      if (it.variants && it.stock) issue([...itemPath, 'stock'], 'an item with variants holds no stock itself; give stock per variant');
      if (it.barcode !== undefined) unique(barcodes, it.barcode, [...itemPath, 'barcode'], 'barcode');
      checkStock(it.stock, [...itemPath, 'stock']);
      it.variants?.forEach((v, j) => {
        const variantPath: Path = [...itemPath, 'variants', j];
        unique(seen.variant, v.id, [...variantPath, 'id'], 'variant id');
        unique(barcodes, v.barcode, [...variantPath, 'barcode'], 'barcode');
        checkStock(v.stock, [...variantPath, 'stock']);
      });
    });
  });
}

export const catalogueSchema = z.strictObject({ accounts: z.array(account) }).superRefine(checkCatalogue);
export type Catalogue = z.infer<typeof catalogueSchema>;
export type CatalogueAccount = Catalogue['accounts'][number];

/** `['accounts', 0, 'items', 3, 'barcode']` → `accounts[0].items[3].barcode`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : out === '' ? String(part) : `.${String(part)}`;
  return out === '' ? '(catalogue)' : out;
}
