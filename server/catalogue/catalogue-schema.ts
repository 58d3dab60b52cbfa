// The catalogue file format of `barcode-inventory import` (README, "Catalogue format"), as zod
// schemas whose errors point at the place: `accounts[0].items[3].barcode: …`. The parts (account,
// item) are exported so the streaming import checks a file one item at a time with the same rules.
import { z } from 'zod';
import { MAX_QUANTITY, MIN_QUANTITY, barcodeInputSchema } from '../../shared/index.ts';
import { CatalogueChecker, formatPath } from './catalogue-checks.ts';

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const name = z.string().trim().min(1, { error: 'This field may not be blank.' });
const quantity = z.number().int().min(MIN_QUANTITY).max(MAX_QUANTITY);
const barcode = barcodeInputSchema;

const stockEntry = z.strictObject({ warehouse: z.string().optional(), quantity });
const variant = z.strictObject({ id, name, barcode, stock: z.array(stockEntry).optional() });
export const catalogueItemSchema = z.strictObject({
  id,
  name,
  barcode: barcode.optional(),
  variants: z.array(variant).min(1).optional(),
  stock: z.array(stockEntry).optional(),
});
const warehouse = z.strictObject({ id, name });
const accountFields = {
  name,
  warehouses_enabled: z.boolean(),
  warehouses: z.array(warehouse).optional(),
};
export const catalogueAccountSchema = z.strictObject({ ...accountFields, items: z.array(catalogueItemSchema).default([]) });
/** An account's own fields, without its items; unknown keys are left to the full account schema. */
export const catalogueAccountHeaderSchema = z.object(accountFields);

export const catalogueSchema = z.strictObject({ accounts: z.array(catalogueAccountSchema) }).superRefine((catalogue, ctx) => {
  const checker = new CatalogueChecker((path, message) => ctx.addIssue({ code: 'custom', path, message }));
  catalogue.accounts.forEach((account, a) => {
    checker.checkAccount(account, a);
    account.items.forEach((item, i) => checker.checkItem(item, i));
  });
});

/** The document's own level; the accounts are checked one by one. */
export const catalogueRootSchema = z.strictObject({ accounts: z.array(z.unknown()) });

export type Catalogue = z.infer<typeof catalogueSchema>;
export type CatalogueAccount = Catalogue['accounts'][number];
export type CatalogueAccountHeader = z.infer<typeof catalogueAccountHeaderSchema>;
export type CatalogueItem = z.infer<typeof catalogueItemSchema>;
export type CatalogueStockEntry = z.infer<typeof stockEntry>;

export { formatPath };
